// The tools store: the tool list of each server the person has looked at,
// reloaded when the Go core says a server's tools changed (tools:changed),
// and what the Tools pane shows — the chosen server and tool, the filter,
// each tool's typed arguments and its last call. It lives here rather than in
// the pane, which App mounts only while it is shown, so that a person who
// looks at History and comes back finds the pane as they left it.

import { t } from './i18n.svelte';
import * as api from './api';
import type { ArgumentCheck, Form, Progress, ToolResultView, ToolView } from './api';
import { formValues, initialState, type FormState } from './formvalues';
import { latest } from './latest';
import { ServerFilter, ServerLists } from './serverlists.svelte';

/** One tool's latest call: running, or its result or failure. */
export interface CallState {
  callID: string;
  running: boolean;
  /** The person pressed Cancel while it ran. */
  cancelled: boolean;
  result: ToolResultView | null;
  /** Set when the call itself failed (not connected, cancelled, ...). */
  error: string;
  /** How far it got while it runs, as its server said; null before it said anything. */
  progress?: Progress | null;
}

/** The key of a tool's call state and draft. */
export function callKey(serverID: string, tool: string): string {
  return `${serverID}\u0000${tool}`;
}

/**
 * ToolDraft is what the person typed for one tool, kept while they look at
 * other tools or panes. It belongs to one version of the tool's input schema:
 * a draft for a schema the server no longer lists is dropped, never shown.
 */
export interface ToolDraft {
  /** The version of the tool's input schema the draft was made for (ToolView.schemaId). */
  schemaId: string;
  form: FormState;
  tab: 'form' | 'json';
  jsonText: string;
  /** The JSON was written by the person (not made from the form). */
  jsonDirty: boolean;
  /** Call was pressed: every field's problem shows, touched or not. */
  triedCall: boolean;
  /** The JSON was edited after the last call: that call's verdict is stale. */
  editedSinceCall: boolean;
  /** Go's latest reading of the form's values. */
  checked: ArgumentCheck | null;
  /** Why the values could not be checked, if they could not. */
  problem: string;
}

/**
 * ToolForm is the form Go made for one version of a tool's input schema,
 * asked for when the tool is opened: while it comes, form is null.
 */
export interface ToolForm {
  /** The version of the input schema it was asked for (ToolView.schemaId). */
  schemaId: string;
  form: Form | null;
  /** The input schema as pretty JSON; "" while the form comes. */
  inputSchema: string;
  /** Why the form could not be had, if it could not. */
  error: string;
}

/** A fresh draft for a tool: its schema defaults, on the form when the form can show every argument. */
export function newDraft(tool: ToolView, form: Form): ToolDraft {
  return {
    schemaId: tool.schemaId,
    form: initialState(form.fields),
    tab: form.complete ? 'form' : 'json',
    jsonText: '{}',
    jsonDirty: false,
    triedCall: false,
    editedSinceCall: false,
    checked: null,
    problem: '',
  };
}

/**
 * The tools that match what was typed in the filter: every word of it appears
 * in the tool's name, title or description, in any case. An empty filter
 * matches every tool. The order is the server's.
 */
export function filterTools(list: ToolView[], filter: string): ToolView[] {
  const words = filter.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return list;
  return list.filter((tool) => {
    const text = `${tool.name}\n${tool.title}\n${tool.description}`.toLocaleLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** How long typing pauses before Go reads the form's values. */
const checkDelayMs = 250;

class ToolsStore {
  /** Each server's tools; a tool gone from a list takes what the pane kept for it along. */
  lists = new ServerLists(api.listTools, [] as ToolView[], '', (id, list) => this.forgetGone(id, list));
  calls = $state<Record<string, CallState>>({});
  /** The server the Tools pane shows ('' before one is chosen). */
  serverID = $state('');
  /** The tool chosen on each server, by name. */
  chosen = $state<Record<string, string>>({});
  private filters = new ServerFilter(() => this.serverID);
  /** What is typed in the tool filter of the shown server; each server keeps its own. */
  get filter(): string {
    return this.filters.value;
  }
  set filter(v: string) {
    this.filters.value = v;
  }
  /** The pane's tab: the server's tools, its resources or its prompts. */
  tab = $state<'tools' | 'resources' | 'prompts'>('tools');
  /** Each tool's typed arguments, by callKey. */
  drafts = $state<Record<string, ToolDraft>>({});
  /** The forms of the tools opened, by callKey. */
  forms = $state<Record<string, ToolForm>>({});

  // Not shown, so not $state: the newest check per key (an older answer
  // that comes late is dropped), and the timers of checks waiting for
  // typing to pause.
  private checks = latest();
  private timers: Record<string, ReturnType<typeof setTimeout>> = {};

  /** Shows serverID in the Tools pane with tool chosen (the welcome's "Try the demo"), and clears the filter so the list shows it. */
  choose(serverID: string, tool: string): void {
    this.serverID = serverID;
    this.chosen[serverID] = tool;
    this.filter = '';
  }

  /** Chooses a tool of the shown server. */
  pick(tool: string): void {
    if (this.serverID) this.chosen[this.serverID] = tool;
  }

  /** Forgets everything the pane remembers (for tests). */
  reset(): void {
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.lists.reset();
    this.calls = {};
    this.serverID = '';
    this.chosen = {};
    this.filters.reset();
    this.tab = 'tools';
    this.drafts = {};
    this.forms = {};
    this.timers = {};
  }

  start(): () => void {
    const offTools = api.onToolsChanged((id) => this.lists.changed(id));
    const offProgress = api.onProgress((p) => this.progressed(p.callId, p));
    return () => {
      offTools();
      offProgress();
    };
  }

  /** Shows a running call's progress; one for a call that ended is dropped. */
  progressed(callID: string, p: Progress): void {
    for (const [key, c] of Object.entries(this.calls)) {
      if (c.callID === callID && c.running) {
        this.calls[key] = { ...c, progress: { progress: p.progress, total: p.total, message: p.message } };
      }
    }
  }

  /**
   * Drops what the pane kept for tools the server no longer lists: the
   * choice, drafts (also of a tool whose input schema changed) and finished
   * calls. A running call stays, so that it can still be cancelled.
   */
  private forgetGone(serverID: string, list: ToolView[]): void {
    const schemas = new Map(list.map((tool) => [tool.name, tool.schemaId]));
    const chosen = this.chosen[serverID];
    if (chosen !== undefined && !schemas.has(chosen)) delete this.chosen[serverID];
    const prefix = callKey(serverID, '');
    for (const [key, draft] of Object.entries(this.drafts)) {
      if (key.startsWith(prefix) && schemas.get(key.slice(prefix.length)) !== draft.schemaId) this.dropDraft(key);
    }
    for (const [key, f] of Object.entries(this.forms)) {
      if (key.startsWith(prefix) && schemas.get(key.slice(prefix.length)) !== f.schemaId) delete this.forms[key];
    }
    for (const [key, call] of Object.entries(this.calls)) {
      if (key.startsWith(prefix) && !schemas.has(key.slice(prefix.length)) && !call.running) delete this.calls[key];
    }
  }

  private dropDraft(key: string): void {
    clearTimeout(this.timers[key]);
    delete this.timers[key];
    delete this.drafts[key];
  }

  /** The person's draft for a tool, if they have one for its current input schema. */
  draft(serverID: string, tool: ToolView): ToolDraft | undefined {
    const d = this.drafts[callKey(serverID, tool.name)];
    return d && d.schemaId === tool.schemaId ? d : undefined;
  }

  /** The draft for a tool, made fresh from its form when there is none for its current input schema. */
  openDraft(serverID: string, tool: ToolView, form: Form): ToolDraft {
    const key = callKey(serverID, tool.name);
    if (this.drafts[key]?.schemaId !== tool.schemaId) {
      this.dropDraft(key);
      this.drafts[key] = newDraft(tool, form);
    }
    return this.drafts[key];
  }

  /** A tool's form for its current input schema, if it was asked for. */
  form(serverID: string, tool: ToolView): ToolForm | undefined {
    const f = this.forms[callKey(serverID, tool.name)];
    return f && f.schemaId === tool.schemaId ? f : undefined;
  }

  /** Asks Go for a tool's form unless it has it, or is asking, for the tool's current input schema. */
  async loadForm(serverID: string, tool: ToolView): Promise<void> {
    const key = callKey(serverID, tool.name);
    if (this.form(serverID, tool)) return;
    this.forms[key] = { schemaId: tool.schemaId, form: null, inputSchema: '', error: '' };
    const mine = this.forms[key]; // the store's proxy of it: a later ask replaces it
    let next: ToolForm;
    try {
      const got = await api.toolForm(serverID, tool.name);
      next = { schemaId: tool.schemaId, form: got.form, inputSchema: got.inputSchema, error: '' };
    } catch (e) {
      next = { schemaId: tool.schemaId, form: null, inputSchema: '', error: api.errorText(e) };
    }
    if (this.forms[key] === mine) this.forms[key] = next;
  }

  /**
   * Asks Go what a tool's form values make and what is wrong with them, and
   * keeps the answer on its draft; the latest answer wins.
   */
  async check(serverID: string, tool: ToolView): Promise<ArgumentCheck | null> {
    const key = callKey(serverID, tool.name);
    clearTimeout(this.timers[key]);
    const draft = this.drafts[key];
    const form = this.form(serverID, tool)?.form;
    if (!draft || !form) return null;
    const mine = this.checks(key);
    try {
      const c = await api.checkArguments(serverID, tool.name, formValues(form.fields, draft.form));
      if (mine() && this.drafts[key] === draft) {
        draft.checked = c;
        draft.problem = '';
      }
      return c;
    } catch (e) {
      if (mine() && this.drafts[key] === draft) draft.problem = api.errorText(e);
      return null;
    }
  }

  /** Checks a tool's form once typing pauses. */
  checkSoon(serverID: string, tool: ToolView): void {
    const key = callKey(serverID, tool.name);
    clearTimeout(this.timers[key]);
    this.timers[key] = setTimeout(() => void this.check(serverID, tool), checkDelayMs);
  }

  call(serverID: string, tool: string): CallState | undefined {
    return this.calls[callKey(serverID, tool)];
  }

  /** Calls a tool; its state is at call(serverID, tool) while and after it runs. */
  async run(serverID: string, tool: string, argsJSON: string): Promise<void> {
    const key = callKey(serverID, tool);
    if (this.calls[key]?.running) return;
    const callID = api.newCallID();
    this.calls[key] = { callID, running: true, cancelled: false, result: null, error: '' };
    try {
      const result = await api.callTool(callID, serverID, tool, argsJSON);
      if (this.calls[key]?.callID === callID) {
        this.calls[key] = { ...this.calls[key], running: false, result };
      }
    } catch (e) {
      if (this.calls[key]?.callID === callID) {
        this.calls[key] = { ...this.calls[key], running: false, error: api.errorText(e) };
      }
    }
  }

  /** Asks the server to stop a running call. */
  async cancel(serverID: string, tool: string): Promise<void> {
    const key = callKey(serverID, tool);
    const c = this.calls[key];
    if (!c?.running) return;
    this.calls[key] = { ...c, cancelled: true };
    try {
      await api.cancelCall(c.callID);
    } catch (e) {
      if (this.calls[key]?.callID === c.callID && this.calls[key].running) {
        this.calls[key] = { ...this.calls[key], cancelled: false, error: t('tools.cancelFailed', { detail: api.errorText(e) }) };
      }
    }
  }
}

export const tools = new ToolsStore();
