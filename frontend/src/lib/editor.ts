// The server editor's text fields and how they become a ServerInput.
//
// Arguments are written one per line: no quoting rules to learn, and an
// argument may contain spaces. Leading and trailing spaces of a line are
// dropped and blank lines are skipped. Environment variables are NAME=value
// lines and HTTP headers "Name: value" lines, sent as written: Go reads them
// (app.ParseEnv, app.ParseHeaders, which the command line uses too) and says
// what is wrong with a line.

import type { ServerInput } from './api';

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

/** Splits argument lines into arguments. */
export function parseArgs(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Whether one argument per line shows these arguments exactly: false when one holds a line break, has
 * spaces at an end or is empty, which the field would split, trim or drop.
 */
export function argsExact(args: string[]): boolean {
  const back = parseArgs(args.join('\n'));
  return back.length === args.length && back.every((a, i) => a === args[i]);
}

/**
 * Turns the editor's text into the ServerInput Go expects. Only the fields of
 * the chosen transport are sent; the others are left empty.
 */
export function fromText(text: EditorText): ServerInput {
  const stdio = text.transport === 'stdio';
  return {
    name: text.name.trim(),
    enabled: text.enabled,
    noUrlMode: !text.urlMode,
    transport: text.transport,
    command: stdio ? text.command.trim() : '',
    args: stdio ? parseArgs(text.args) : [],
    env: {},
    envLines: stdio ? text.env : '',
    dir: stdio ? text.dir.trim() : '',
    inheritEnv: stdio && text.inheritEnv,
    url: stdio ? '' : text.url.trim(),
    headers: {},
    headerLines: stdio ? '' : text.headers,
    clientId: stdio ? '' : text.clientId.trim(),
    clientSecret: stdio ? '' : text.clientSecret,
    clientMetadataUrl: stdio ? '' : text.clientMetadataUrl.trim(),
    roots: [...text.roots],
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

/** The ServerInput fields an editor field is sent in, where their names differ. */
const inputFields: Record<string, keyof ServerInput> = { env: 'envLines', headers: 'headerLines' };

/**
 * Whether an editor field's value in input differs from the one in checked (the input Go's errors
 * are about; null before Go answered): an error about the older value must not be shown against
 * the newer one.
 */
export function changedSince(checked: ServerInput | null, input: ServerInput, field: string): boolean {
  if (!checked) return false;
  const key = inputFields[field] ?? (field as keyof ServerInput);
  return JSON.stringify(checked[key]) !== JSON.stringify(input[key]);
}
