// The servers store: every configured server with its live status, kept
// current by the Go core's servers:changed event.

import * as api from './api';
import type { ServerView } from './api';

class ServersStore {
  list = $state<ServerView[]>([]);
  loaded = $state(false);
  /** Set when the list could not be loaded. */
  error = $state('');

  /** Loads the list and follows changes; returns a function that stops following. */
  start(): () => void {
    const off = api.onServersChanged((list) => this.set(list));
    void this.refresh();
    return off;
  }

  async refresh(): Promise<void> {
    try {
      this.set(await api.listServers());
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  set(list: ServerView[]): void {
    this.list = list;
    this.loaded = true;
  }

  byID(id: string): ServerView | undefined {
    return this.list.find((s) => s.id === id);
  }

  /** Puts one server's new view in place (after Add/Update), before the event arrives. */
  upsert(view: ServerView): void {
    const i = this.list.findIndex((s) => s.id === view.id);
    if (i >= 0) this.list[i] = view;
    else this.list.push(view);
  }
}

export const servers = new ServersStore();
