// The servers store: every configured server with its live status, as the
// servers:changed event carries it. Go numbers each list as it reads it:
// events may arrive out of order (the Wails dev server sends each one from
// its own goroutine, and Go emits status changes from several goroutines),
// so a list older than the one shown is dropped, and a late "connecting"
// never hides a newer "connected".

import * as api from './api';
import type { ServerList, ServerView } from './api';
import { newestVersion } from './latest';

class ServersStore {
  list = $state<ServerView[]>([]);
  loaded = $state(false);
  /** Set when the list could not be loaded. */
  error = $state('');
  private newer = newestVersion();

  /**
   * The list Go wrote into the page (startview.ts) is shown at once; it is
   * read again once the first frame is on its way, for what changed before
   * the window followed the events.
   */
  private fromPage = false;

  /** Shows the list Go wrote into the page, before the window mounts. */
  takeStart(list: ServerList): void {
    this.apply(list);
    this.fromPage = true;
  }

  /** Follows the list's changes and reads it once; returns a function that stops following. */
  start(): () => void {
    const off = api.onServersChanged((list) => this.apply(list));
    if (this.fromPage) {
      // Not before the first frame: reading it now would hold that frame back.
      this.fromPage = false;
      requestAnimationFrame(() => setTimeout(() => void this.refresh()));
    } else {
      void this.refresh();
    }
    return off;
  }

  /** Reads the list from Go. */
  async refresh(): Promise<void> {
    try {
      this.apply(await api.listServers());
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /** Shows a list Go read, unless the one shown is newer. */
  apply(list: ServerList): void {
    if (!this.newer(list.version)) return;
    this.list = list.servers;
    this.loaded = true;
  }

  /** Shows list as it is; a list from Go with any version replaces it (for tests). */
  set(list: ServerView[]): void {
    this.newer = newestVersion();
    this.list = list;
    this.loaded = true;
  }

  byID(id: string): ServerView | undefined {
    return this.list.find((s) => s.id === id);
  }

  /**
   * Shows a server that was just added, before the servers:changed event
   * lists it. A server already listed is left alone: the event that listed it
   * is at least as new as the view Add or Update returned (a fast server may
   * already be connected while the returned view still says connecting).
   */
  addIfMissing(view: ServerView): void {
    if (!this.list.some((s) => s.id === view.id)) this.list.push(view);
  }
}

export const servers = new ServersStore();
