// The one door between the UI and Gatehouse's Go core. Every binding call and
// event subscription goes through here, so that components and stores stay
// free of Wails details, and component tests can replace this module with a
// mock (vi.mock('../lib/api')).
//
// The Go side returns nil slices and maps as null; this module turns them
// into empty ones so the rest of the UI never has to check.

import * as Servers from '../../wailsjs/go/app/ServersService';
import * as Tools from '../../wailsjs/go/app/ToolsService';
import * as Settings from '../../wailsjs/go/app/SettingsService';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { app } from '../../wailsjs/go/models';

// Plain data shapes of the Go types in app/types.go. The generated classes
// in wailsjs/go/models.ts have constructors; the UI only needs the fields.
type Data<T> = { [K in keyof T as T[K] extends Function ? never : K]: T[K] };

export type ServerInput = Data<app.ServerInput>;
export type ServerView = Omit<Data<app.ServerView>, 'input' | 'status'> & {
  input: ServerInput;
  status: StatusView;
};
export type StatusView = Omit<Data<app.StatusView>, 'counts'> & { counts: ListCount };
export type ListCount = Data<app.ListCount>;
export type FieldErrors = Record<string, string>;
export type OptionView = Data<app.OptionView>;
export type FieldView = Omit<Data<app.FieldView>, 'options'> & { options?: OptionView[] };
export type FormView = { fields: FieldView[]; complete: boolean; reason: string };
export type ToolHints = Data<app.ToolHints>;
export type ToolView = Omit<Data<app.ToolView>, 'annotations' | 'form'> & {
  annotations: ToolHints;
  form: FormView;
};
export type ContentView = Data<app.ContentView>;
export type ToolResultView = Omit<Data<app.ToolResultView>, 'content'> & { content: ContentView[] };
export type AppInfo = Data<app.AppInfo>;

/** Event names sent by the Go core (app/types.go). */
export const EventServers = 'servers:changed';
export const EventTools = 'tools:changed';

/** A sentence for people from whatever a failed call rejected with. */
export function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}

function backend(): void {
  const w = window as unknown as { go?: unknown };
  if (!w.go) throw new Error('Gatehouse’s core is not reachable: this page must run inside the Gatehouse app.');
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  backend();
  try {
    return await fn();
  } catch (e) {
    throw new Error(errorText(e));
  }
}

export function normalizeInput(i: Partial<ServerInput> | null | undefined): ServerInput {
  return {
    name: i?.name ?? '',
    enabled: i?.enabled ?? false,
    transport: i?.transport ?? 'stdio',
    command: i?.command ?? '',
    args: i?.args ?? [],
    env: i?.env ?? {},
    dir: i?.dir ?? '',
    url: i?.url ?? '',
    headers: i?.headers ?? {},
  };
}

export function normalizeServer(s: ServerView): ServerView {
  const st = (s.status ?? {}) as Partial<StatusView>;
  return {
    id: s.id,
    where: s.where ?? '',
    input: normalizeInput(s.input),
    status: {
      state: st.state ?? 'connecting',
      message: st.message ?? '',
      transport: st.transport ?? '',
      protocolVersion: st.protocolVersion ?? '',
      serverName: st.serverName ?? '',
      serverVersion: st.serverVersion ?? '',
      capabilities: st.capabilities ?? [],
      since: st.since ?? '',
      nextRetry: st.nextRetry ?? '',
      counts: st.counts ?? { tools: 0, resources: 0, prompts: 0 },
    },
  };
}

export function normalizeTool(t: ToolView): ToolView {
  const form = (t.form ?? {}) as Partial<FormView>;
  return {
    ...t,
    title: t.title || t.name,
    description: t.description ?? '',
    annotations: t.annotations ?? { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    form: {
      fields: (form.fields ?? []).map((f) => ({ ...f, options: f.options ?? [] })),
      complete: form.complete ?? false,
      reason: form.reason ?? '',
    },
    inputSchema: t.inputSchema ?? '',
  };
}

export function normalizeResult(r: ToolResultView): ToolResultView {
  return {
    isError: !!r.isError,
    content: r.content ?? [],
    structured: r.structured ?? '',
    structuredWarning: r.structuredWarning ?? '',
    durationMs: r.durationMs ?? 0,
  };
}

// --- Servers pane -----------------------------------------------------------

export async function listServers(): Promise<ServerView[]> {
  const list = await call(() => Servers.List());
  return (list ?? []).map((s) => normalizeServer(s as ServerView));
}

/** Field errors for an editor's input; an empty object means valid. */
export async function validateServer(id: string, input: ServerInput): Promise<FieldErrors> {
  const errs = await call(() => Servers.Validate(id, input as app.ServerInput));
  return { ...(errs ?? {}) };
}

export async function addServer(input: ServerInput): Promise<ServerView> {
  return normalizeServer((await call(() => Servers.Add(input as app.ServerInput))) as ServerView);
}

export async function updateServer(id: string, input: ServerInput): Promise<ServerView> {
  return normalizeServer((await call(() => Servers.Update(id, input as app.ServerInput))) as ServerView);
}

export function removeServer(id: string): Promise<void> {
  return call(() => Servers.Remove(id));
}

export function setServerEnabled(id: string, enabled: boolean): Promise<void> {
  return call(() => Servers.SetEnabled(id, enabled));
}

export function reconnectServer(id: string): Promise<void> {
  return call(() => Servers.Reconnect(id));
}

export async function serverLog(id: string): Promise<string> {
  return (await call(() => Servers.Log(id))) ?? '';
}

// --- Tools pane ---------------------------------------------------------------

export async function listTools(serverID: string): Promise<ToolView[]> {
  const list = await call(() => Tools.List(serverID));
  return (list ?? []).map((t) => normalizeTool(t as ToolView));
}

export async function callTool(
  callID: string,
  serverID: string,
  tool: string,
  argsJSON: string,
): Promise<ToolResultView> {
  return normalizeResult((await call(() => Tools.Call(callID, serverID, tool, argsJSON))) as ToolResultView);
}

export function cancelCall(callID: string): Promise<void> {
  return call(() => Tools.Cancel(callID));
}

// --- Settings pane ------------------------------------------------------------

export async function appInfo(): Promise<AppInfo> {
  return call(() => Settings.Info());
}

// --- Events -------------------------------------------------------------------

type Unsubscribe = () => void;

function on(name: string, cb: (...data: unknown[]) => void): Unsubscribe {
  const w = window as unknown as { runtime?: unknown };
  if (!w.runtime) return () => {};
  return EventsOn(name, cb);
}

/** Calls cb with every server and its status whenever any server changes. */
export function onServersChanged(cb: (servers: ServerView[]) => void): Unsubscribe {
  return on(EventServers, (list) => cb(((list as ServerView[]) ?? []).map(normalizeServer)));
}

/** Calls cb with a server's ID whenever that server's tool list changed. */
export function onToolsChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventTools, (id) => cb(String(id)));
}

/** A fresh ID for a tool call, so that it can be cancelled. */
export function newCallID(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `call-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
