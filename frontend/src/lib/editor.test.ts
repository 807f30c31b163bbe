import { describe, expect, it } from 'vitest';
import { argsExact, fieldOf, fromText, emptyText, parseArgs, parseEnv, parseHeaders, toText } from './editor';

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

describe('parseEnv', () => {
  const cases: [string, string, Record<string, string>, string][] = [
    ['NAME=value lines', 'A=1\nB=two words', { A: '1', B: 'two words' }, ''],
    ['the value may contain =', 'TOKEN=a=b=c', { TOKEN: 'a=b=c' }, ''],
    ['an empty value is allowed', 'EMPTY=', { EMPTY: '' }, ''],
    ['a line without = is explained', 'A=1\nnope', { A: '1' }, 'Line 2: write each variable as NAME=value.'],
    ['a missing name is explained', '=x', {}, 'Line 1: write each variable as NAME=value.'],
    ['a name twice is explained', 'A=1\nA=2', { A: '1' }, 'A is set twice.'],
  ];
  it.each(cases)('%s', (_, text, env, error) => {
    expect(parseEnv(text)).toEqual({ env, error });
  });
});

describe('parseHeaders', () => {
  const cases: [string, string, Record<string, string>, string][] = [
    ['Name: value lines', 'Authorization: Bearer x\nX-Id:7', { Authorization: 'Bearer x', 'X-Id': '7' }, ''],
    ['a line without a colon is explained', 'Broken', {}, 'Line 1: write each header as Name: value.'],
    ['names are case-insensitive', 'A: 1\na: 2', { A: '1' }, 'a is set twice.'],
  ];
  it.each(cases)('%s', (_, text, headers, error) => {
    expect(parseHeaders(text)).toEqual({ headers, error });
  });
});

describe('fromText', () => {
  it('sends only the stdio fields for a local program', () => {
    const t = { ...emptyText(), name: ' Files ', command: 'npx', args: '-y\npkg', env: 'A=1', url: 'https://x', headers: 'H: 1' };
    expect(fromText(t)).toEqual({
      input: {
        name: 'Files',
        enabled: true,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'pkg'],
        env: { A: '1' },
        dir: '',
        inheritEnv: false,
        url: '',
        headers: {},
        noUrlMode: false,
        clientId: '',
        clientSecret: '',
        clientMetadataUrl: '',
        roots: [],
      },
      errors: {},
    });
  });

  it('sends only the HTTP fields for a remote server, and reports bad header lines', () => {
    const t = { ...emptyText(), transport: 'http' as const, name: 'R', command: 'npx', url: ' https://h/mcp ', headers: 'bad' };
    const got = fromText(t);
    expect(got.input).toMatchObject({ transport: 'http', command: '', args: [], url: 'https://h/mcp', env: {} });
    expect(got.errors).toEqual({ headers: 'Line 1: write each header as Name: value.' });
  });

  it('turns URL mode off when the box is cleared (E4)', () => {
    expect(fromText({ ...emptyText(), name: 'n', command: 'c', urlMode: false }).input.noUrlMode).toBe(true);
    expect(toText({ ...fromText({ ...emptyText(), name: 'n', command: 'c' }).input, noUrlMode: true }).urlMode).toBe(false);
  });

  it('passes the whole environment only when the box is ticked, and only to a local program', () => {
    const base = { ...emptyText(), name: 'n', command: 'c', url: 'https://h/mcp' };
    expect(fromText(base).input.inheritEnv).toBe(false);
    expect(fromText({ ...base, inheritEnv: true }).input.inheritEnv).toBe(true);
    expect(fromText({ ...base, inheritEnv: true, transport: 'http' }).input.inheritEnv).toBe(false);
    expect(toText({ ...fromText(base).input, inheritEnv: true }).inheritEnv).toBe(true);
  });

  it('round-trips through toText', () => {
    const input = fromText({ ...emptyText(), name: 'n', command: 'c', args: 'a b\nc', env: 'K=v' }).input;
    expect(fromText(toText(input)).input).toEqual(input);
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
