// The tools store: the tool list of each server the person has looked at,
// reloaded when the Go core says a server's tools changed (tools:changed).

import { t } from './i18n.svelte';
import * as api from './api';
import type { ToolResultView, ToolView } from './api';

/** One tool's latest call: running, or its result or failure. */
export interface CallState {
  callID: string;
  running: boolean;
  /** The person pressed Cancel while it ran. */
  cancelled: boolean;
  result: ToolResultView | null;
  /** Set when the call itself failed (not connected, cancelled, ...). */
  error: string;
}

/** The key of a tool's call state. */
export function callKey(serverID: string, tool: string): string {
  return `${serverID}\u0000${tool}`;
}

export interface ToolList {
  tools: ToolView[];
  loading: boolean;
  error: string;
}

class ToolsStore {
  byServer = $state<Record<string, ToolList>>({});
  calls = $state<Record<string, CallState>>({});
  /**
   * A server and tool to show in the Tools pane, asked for from elsewhere
   * (the welcome's "Try the demo"); the pane takes it once the tool is listed.
   */
  wanted = $state<{ serverID: string; tool: string } | null>(null);

  /** Asks the Tools pane to show serverID with tool chosen. */
  choose(serverID: string, tool: string): void {
    this.wanted = { serverID, tool };
  }

  start(): () => void {
    return api.onToolsChanged((id) => {
      if (this.byServer[id]) void this.load(id);
    });
  }

  get(serverID: string): ToolList | undefined {
    return this.byServer[serverID];
  }

  // The newest load per server: an older load that answers late is dropped.
  private loads: Record<string, number> = {};

  async load(serverID: string): Promise<void> {
    const mine = (this.loads[serverID] = (this.loads[serverID] ?? 0) + 1);
    const prev = this.byServer[serverID];
    this.byServer[serverID] = { tools: prev?.tools ?? [], loading: true, error: '' };
    try {
      const tools = await api.listTools(serverID);
      if (this.loads[serverID] === mine) this.byServer[serverID] = { tools, loading: false, error: '' };
    } catch (e) {
      if (this.loads[serverID] === mine) this.byServer[serverID] = { tools: [], loading: false, error: api.errorText(e) };
    }
  }

  forget(serverID: string): void {
    delete this.byServer[serverID];
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
