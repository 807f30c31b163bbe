// The server editor's text fields and how they become a ServerInput.
//
// Arguments are written one per line: no quoting rules to learn, and an
// argument may contain spaces. Leading and trailing spaces of a line are
// dropped and blank lines are skipped. Environment variables are KEY=VALUE
// lines (the value is everything after the first "="), HTTP headers are
// "Name: value" lines.

import { t } from './i18n.svelte';
import type { FieldErrors, ServerInput } from './api';

export interface EditorText {
  name: string;
  enabled: boolean;
  /** URL mode is allowed (the input's noUrlMode is the opposite). */
  urlMode: boolean;
  transport: 'stdio' | 'http';
  command: string;
  args: string;
  env: string;
  dir: string;
  /** Pass Gatehouse's whole environment to the stdio server, not only the basic variables. */
  inheritEnv: boolean;
  url: string;
  headers: string;
  clientId: string;
  clientSecret: string;
  clientMetadataUrl: string;
  /** The folders the server may see, as absolute paths (chosen with the folder dialog). */
  roots: string[];
}

export function emptyText(): EditorText {
  return {
    name: '',
    enabled: true,
    urlMode: true,
    transport: 'stdio',
    command: '',
    args: '',
    env: '',
    dir: '',
    inheritEnv: false,
    url: '',
    headers: '',
    clientId: '',
    clientSecret: '',
    clientMetadataUrl: '',
    roots: [],
  };
}

export function toText(i: ServerInput): EditorText {
  return {
    name: i.name,
    enabled: i.enabled,
    urlMode: !i.noUrlMode,
    transport: i.transport === 'http' ? 'http' : 'stdio',
    command: i.command,
    args: (i.args ?? []).join('\n'),
    env: Object.entries(i.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    dir: i.dir,
    inheritEnv: i.inheritEnv ?? false,
    url: i.url,
    headers: Object.entries(i.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
    clientId: i.clientId ?? '',
    clientSecret: i.clientSecret ?? '',
    clientMetadataUrl: i.clientMetadataUrl ?? '',
    roots: [...(i.roots ?? [])],
  };
}

function lines(text: string): { n: number; line: string }[] {
  return text
    .split('\n')
    .map((line, i) => ({ n: i + 1, line: line.replace(/\r$/, '') }))
    .filter(({ line }) => line.trim() !== '');
}

/** Splits argument lines into arguments. */
export function parseArgs(text: string): string[] {
  return lines(text).map(({ line }) => line.trim());
}

/**
 * Whether one argument per line shows these arguments exactly: false when one holds a line break, has
 * spaces at an end or is empty, which the field would split, trim or drop.
 */
export function argsExact(args: string[]): boolean {
  const back = parseArgs(args.join('\n'));
  return back.length === args.length && back.every((a, i) => a === args[i]);
}

/** Reads KEY=VALUE lines; the error is a sentence for the first bad line. */
export function parseEnv(text: string): { env: Record<string, string>; error: string } {
  const env: Record<string, string> = {};
  for (const { n, line } of lines(text)) {
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    if (eq < 0 || key === '') {
      return { env, error: t('editor.envLine', { n }) };
    }
    if (/\s/.test(key)) return { env, error: t('editor.envSpaces', { n }) };
    if (key in env) return { env, error: t('editor.twice', { name: key }) };
    env[key] = line.slice(eq + 1);
  }
  return { env, error: '' };
}

/** Reads "Name: value" lines; the error is a sentence for the first bad line. */
export function parseHeaders(text: string): { headers: Record<string, string>; error: string } {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { n, line } of lines(text)) {
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon).trim();
    if (colon < 0 || key === '') {
      return { headers, error: t('editor.headerLine', { n }) };
    }
    if (/\s/.test(key)) return { headers, error: t('editor.headerSpaces', { n }) };
    if (seen.has(key.toLowerCase())) return { headers, error: t('editor.twice', { name: key }) };
    seen.add(key.toLowerCase());
    headers[key] = line.slice(colon + 1).trim();
  }
  return { headers, error: '' };
}

/**
 * Turns the editor's text into the ServerInput Go expects. Only the fields of
 * the chosen transport are sent; the others are left empty. errors holds the
 * problems found while reading the text itself (Go checks the rest).
 */
export function fromText(text: EditorText): { input: ServerInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const stdio = text.transport === 'stdio';
  const env = stdio ? parseEnv(text.env) : { env: {}, error: '' };
  const headers = stdio ? { headers: {}, error: '' } : parseHeaders(text.headers);
  if (env.error) errors.env = env.error;
  if (headers.error) errors.headers = headers.error;
  return {
    input: {
      name: text.name.trim(),
      enabled: text.enabled,
      noUrlMode: !text.urlMode,
      transport: text.transport,
      command: stdio ? text.command.trim() : '',
      args: stdio ? parseArgs(text.args) : [],
      env: env.env,
      dir: stdio ? text.dir.trim() : '',
      inheritEnv: stdio && text.inheritEnv,
      url: stdio ? '' : text.url.trim(),
      headers: headers.headers,
      clientId: stdio ? '' : text.clientId.trim(),
      clientSecret: stdio ? '' : text.clientSecret,
      clientMetadataUrl: stdio ? '' : text.clientMetadataUrl.trim(),
      roots: [...text.roots],
    },
    errors,
  };
}

/** The editor fields that show their own error; others are listed at the top. */
export const editorFields = [
  'name',
  'transport',
  'command',
  'args',
  'env',
  'dir',
  'url',
  'headers',
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'roots',
] as const;

/** The editor field an error key belongs to: "env.FOO" and "args[2]" belong to env and args. */
export function fieldOf(key: string): string {
  return key.split(/[.[]/)[0];
}
