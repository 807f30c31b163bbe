// The prompts store: what the Tools pane's Prompts tab shows — each
// server's prompts (listed again on prompts:changed and when the server
// reconnects), the chosen one per server, the arguments typed for each
// prompt, and each prompt's latest preview. It lives here rather than in the
// view, which is mounted only while its tab is shown.

import * as api from './api';
import type { PromptResultView, PromptView } from './api';
import { resourceKey } from './resources.svelte';

/** A server's prompts as the tab shows them. */
export interface PromptList {
  prompts: PromptView[];
  loading: boolean;
  error: string;
  /** The server offers no prompts at all: error says so. */
  notOffered: boolean;
}

/** A prompt's latest preview: the messages it produced, or why it could not. */
export interface PromptPreview {
  loading: boolean;
  result: PromptResultView | null;
  error: string;
}

class PromptsStore {
  lists = $state<Record<string, PromptList>>({});
  /** The chosen prompt per server, by name. */
  chosen = $state<Record<string, string>>({});
  /** What is typed in the filter. */
  filter = $state('');
  /** Each prompt's typed arguments, by resourceKey(server, prompt name). */
  args = $state<Record<string, Record<string, string>>>({});
  /** Each prompt's latest preview, by the same key. */
  previews = $state<Record<string, PromptPreview>>({});

  private loadedFor: Record<string, string> = {};
  private loads: Record<string, number> = {};
  private gets: Record<string, number> = {};

  /** Listens to Go: a server's prompts are listed again when they change. */
  start(): () => void {
    return api.onPromptsChanged((id) => {
      if (this.lists[id]) void this.load(id);
    });
  }

  /** Forgets everything (for tests). */
  reset(): void {
    this.lists = {};
    this.chosen = {};
    this.filter = '';
    this.args = {};
    this.previews = {};
    this.loadedFor = {};
    this.loads = {};
    this.gets = {};
  }

  /** Loads a server's prompts unless they were loaded for this connection (the time it connected) already. */
  follow(serverID: string, connection: string): void {
    if (this.loadedFor[serverID] === connection && this.lists[serverID]) return;
    this.loadedFor[serverID] = connection;
    void this.load(serverID);
  }

  async load(serverID: string): Promise<void> {
    const mine = (this.loads[serverID] = (this.loads[serverID] ?? 0) + 1);
    this.lists[serverID] = { prompts: this.lists[serverID]?.prompts ?? [], loading: true, error: '', notOffered: false };
    try {
      const prompts = await api.listPrompts(serverID);
      if (this.loads[serverID] !== mine) return;
      this.lists[serverID] = { prompts, loading: false, error: '', notOffered: false };
      if (this.chosen[serverID] && !prompts.some((p) => p.name === this.chosen[serverID])) delete this.chosen[serverID];
    } catch (e) {
      if (this.loads[serverID] !== mine) return;
      const notOffered = e instanceof api.GoError && e.is('mcp.prompts.notOffered');
      this.lists[serverID] = { prompts: [], loading: false, error: api.errorText(e), notOffered };
    }
  }

  /** Chooses a prompt; returns its typed arguments (kept from before). */
  choose(serverID: string, prompt: PromptView): Record<string, string> {
    this.chosen[serverID] = prompt.name;
    const args = (this.args[resourceKey(serverID, prompt.name)] ??= {});
    for (const a of prompt.arguments) args[a.name] ??= '';
    return args;
  }

  /** Asks the server for the prompt's messages with the typed arguments; the latest answer wins. */
  async preview(serverID: string, name: string): Promise<void> {
    const key = resourceKey(serverID, name);
    const args = { ...(this.args[key] ?? {}) };
    const mine = (this.gets[key] = (this.gets[key] ?? 0) + 1);
    this.previews[key] = { loading: true, result: this.previews[key]?.result ?? null, error: '' };
    try {
      const result = await api.getPrompt(serverID, name, args);
      if (this.gets[key] === mine) this.previews[key] = { loading: false, result, error: '' };
    } catch (e) {
      if (this.gets[key] === mine) this.previews[key] = { loading: false, result: null, error: api.errorText(e) };
    }
  }
}

export const prompts = new PromptsStore();
