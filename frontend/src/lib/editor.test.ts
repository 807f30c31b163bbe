import { describe, expect, it } from 'vitest';
import { argsExact, fieldOf, fromText, emptyText, parseArgs, toText } from './editor';

describe('parseArgs', () => {
  const cases: [string, string, string[]][] = [
    ['one argument per line', '-y\n@scope/pkg', ['-y', '@scope/pkg']],
    ['spaces inside a line are kept', 'hello world\n--flag', ['hello world', '--flag']],
    ['blank lines and outer spaces are dropped', '\n  a  \n\n\tb\n', ['a', 'b']],
    ['Windows line endings', 'a\r\nb\r\n', ['a', 'b']],
    ['nothing', '', []],
  ];
  it.each(cases)('%s', (_, text, want) => {
    expect(parseArgs(text)).toEqual(want);
  });
});

describe('argsExact', () => {
  it.each([
    ['plain arguments, spaces inside one', ['-y', 'a b', '/home/x'], true],
    ['no arguments', [], true],
    ['a line break inside one', ['-c', 'a\nb'], false],
    ['a space at an end', ['x '], false],
    ['an empty one', ['a', ''], false],
  ])('%s', (_name, args, want) => {
    expect(argsExact(args)).toBe(want);
  });
});

describe('fromText', () => {
  it('sends only the stdio fields for a local program, its variables as written for Go to read', () => {
    const t = { ...emptyText(), name: ' Files ', command: 'npx', args: '-y\npkg', env: 'A=1\nbad', url: 'https://x', headers: 'H: 1' };
    expect(fromText(t)).toEqual({
      name: 'Files',
      enabled: true,
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg'],
      env: {},
      envLines: 'A=1\nbad',
      dir: '',
      inheritEnv: false,
      url: '',
      headers: {},
      headerLines: '',
      noUrlMode: false,
      clientId: '',
      clientSecret: '',
      clientMetadataUrl: '',
      roots: [],
    });
  });

  it('sends only the HTTP fields for a remote server, its header lines as written', () => {
    const t = { ...emptyText(), transport: 'http' as const, name: 'R', command: 'npx', env: 'A=1', url: ' https://h/mcp ', headers: 'bad' };
    expect(fromText(t)).toMatchObject({ transport: 'http', command: '', args: [], url: 'https://h/mcp', envLines: '', headerLines: 'bad' });
  });

  it('turns URL mode off when the box is cleared (E4)', () => {
    expect(fromText({ ...emptyText(), name: 'n', command: 'c', urlMode: false }).noUrlMode).toBe(true);
    expect(toText({ ...fromText({ ...emptyText(), name: 'n', command: 'c' }), noUrlMode: true }).urlMode).toBe(false);
  });

  it('passes the whole environment only when the box is ticked, and only to a local program', () => {
    const base = { ...emptyText(), name: 'n', command: 'c', url: 'https://h/mcp' };
    expect(fromText(base).inheritEnv).toBe(false);
    expect(fromText({ ...base, inheritEnv: true }).inheritEnv).toBe(true);
    expect(fromText({ ...base, inheritEnv: true, transport: 'http' }).inheritEnv).toBe(false);
    expect(toText({ ...fromText(base), inheritEnv: true }).inheritEnv).toBe(true);
  });

  it("shows a saved server's variables and headers as the lines it sends", () => {
    const stdio = { ...fromText({ ...emptyText(), name: 'n', command: 'c', args: 'a b\nc' }), env: { K: 'v', T: 'a=b' } };
    expect(fromText(toText(stdio))).toEqual({ ...stdio, env: {}, envLines: 'K=v\nT=a=b' });
    const http = { ...fromText({ ...emptyText(), transport: 'http', name: 'n', url: 'https://h' }), headers: { 'X-A': '1' } };
    expect(fromText(toText(http))).toEqual({ ...http, headers: {}, headerLines: 'X-A: 1' });
  });
});

describe('fieldOf', () => {
  it.each([
    ['name', 'name'],
    ['env.FOO', 'env'],
    ['args[2]', 'args'],
    ['headers.Authorization', 'headers'],
  ])('%s belongs to %s', (key, want) => {
    expect(fieldOf(key)).toBe(want);
  });
});
