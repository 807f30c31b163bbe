// The servers store: every configured server with its live status, kept
// current by reading the list again on each servers:changed event.

import * as api from './api';
import type { ServerView } from './api';

class ServersStore {
  list = $state<ServerView[]>([]);
  loaded = $state(false);
  /** Set when the list could not be loaded. */
  error = $state('');

  /**
   * The list Go wrote into the page (startview.ts) is shown at once; it is
   * read again once the first frame is on its way, for what changed since.
   */
  private fromPage = false;

  /** Shows the list Go wrote into the page, before the window mounts. */
  takeStart(list: ServerView[]): void {
    this.set(list);
    this.fromPage = true;
  }

  /** Loads the list and follows changes; returns a function that stops following. */
  start(): () => void {
    const off = api.onServersChanged(() => void this.refresh());
    if (this.fromPage) {
      // Not before the first frame: reading it now would hold that frame back.
      this.fromPage = false;
      requestAnimationFrame(() => setTimeout(() => void this.refresh()));
    } else {
      void this.refresh();
    }
    return off;
  }

  // servers:changed is taken as "something changed", and the list is read
  // again with ServersService.List, rather than trusting the event's payload:
  // events can arrive out of order (the Wails dev server sends each one from
  // its own goroutine, and Go emits status changes from several goroutines),
  // so a late "connecting" could otherwise hide a newer "connected" for good.
  // A List issued after the last event arrived always shows the final state.
  private reading: Promise<void> | null = null;
  private again = false;

  /** Reads the list from Go; calls made while a read is running cause one more read after it. */
  refresh(): Promise<void> {
    this.again = true;
    if (!this.reading) {
      this.reading = (async () => {
        while (this.again) {
          this.again = false;
          try {
            this.set(await api.listServers());
            this.error = '';
          } catch (e) {
            this.error = api.errorText(e);
          }
        }
        this.reading = null;
      })();
    }
    return this.reading;
  }

  set(list: ServerView[]): void {
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
