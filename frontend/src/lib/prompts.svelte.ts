// The prompts store: what the Tools pane's Prompts tab shows — each
// server's prompts (listed again on prompts:changed and when the server
// reconnects), the chosen one per server, the arguments typed for each
// prompt, and each prompt's latest preview. It lives here rather than in the
// view, which is mounted only while its tab is shown.

import * as api from './api';
import type { PromptResultView, PromptView } from './api';
import { resourceKey } from './resources.svelte';
import { latest } from './latest';
import { ServerFilter, ServerLists } from './serverlists.svelte';
import { tools } from './tools.svelte';

/** A prompt's latest preview: the messages it produced, or why it could not. */
export interface PromptPreview {
  loading: boolean;
  result: PromptResultView | null;
  error: string;
}

class PromptsStore {
  /** Each server's prompts; a prompt gone from a list is no longer chosen. */
  lists = new ServerLists(api.listPrompts, [] as PromptView[], 'mcp.prompts.notOffered', (id, list) => {
    if (this.chosen[id] && !list.some((p) => p.name === this.chosen[id])) delete this.chosen[id];
  });
  /** The chosen prompt per server, by name. */
  chosen = $state<Record<string, string>>({});
  private filters = new ServerFilter(() => tools.serverID);
  /** What is typed in the filter of the server the Tools pane shows; each server keeps its own. */
  get filter(): string {
    return this.filters.value;
  }
  set filter(v: string) {
    this.filters.value = v;
  }
  /** Each prompt's typed arguments, by resourceKey(server, prompt name). */
  args = $state<Record<string, Record<string, string>>>({});
  /** Each prompt's latest preview, by the same key. */
  previews = $state<Record<string, PromptPreview>>({});

  private gets = latest();

  /** Listens to Go: a server's prompts are listed again when they change. */
  start(): () => void {
    return api.onPromptsChanged((id) => this.lists.changed(id));
  }

  /** Forgets everything (for tests). */
  reset(): void {
    this.lists.reset();
    this.chosen = {};
    this.filters.reset();
    this.args = {};
    this.previews = {};
    this.gets = latest();
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
    const mine = this.gets(key);
    this.previews[key] = { loading: true, result: this.previews[key]?.result ?? null, error: '' };
    try {
      const result = await api.getPrompt(serverID, name, args);
      if (mine()) this.previews[key] = { loading: false, result, error: '' };
    } catch (e) {
      if (mine()) this.previews[key] = { loading: false, result: null, error: api.errorText(e) };
    }
  }
}

export const prompts = new PromptsStore();
