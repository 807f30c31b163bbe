// The consent dialog's store: the request on screen, the requests waiting
// behind it, and notices (a request that closed without an answer, a server
// sending too many requests).
//
// As with the servers store, events are taken as "something changed" and the
// state is read again from Go (ElicitationService.Current and Waiting): Wails
// may deliver events out of order, and a page that loads while a request is
// open must still show it.

import * as api from './api';
import type { ElicitationView, NoticeView, OpenedView, QueueEntryView } from './api';

/** A notice shown above the window's content until dismissed. */
export interface Notice {
  key: number;
  kind: 'closed' | 'flood' | 'error';
  text: string;
  serverId?: string;
  serverName?: string;
}

class ElicitationStore {
  current = $state<ElicitationView | null>(null);
  waiting = $state<QueueEntryView[]>([]);
  /** Web pages opened in the browser, waiting for their servers to confirm. */
  opened = $state<OpenedView[]>([]);
  notices = $state<Notice[]>([]);

  private nextKey = 1;
  private reading: Promise<void> | null = null;
  private again = false;
  /** IDs the person already answered here: a late read must not show them again. */
  private answered = new Set<string>();

  /** Loads the state and follows changes; returns a function that stops following. */
  start(): () => void {
    const offs = [
      api.onElicitationChanged(() => void this.refresh()),
      api.onElicitationClosed((c) => {
        if (c.reason) this.notify({ kind: 'closed', text: c.reason });
        void this.refresh();
      }),
      api.onNotice((n) => this.flood(n)),
      api.onOpenedChanged(() => void this.refresh()),
    ];
    void this.refresh();
    return () => offs.forEach((off) => off());
  }

  /** Reads Current and Waiting from Go; calls during a read cause one more read. */
  refresh(): Promise<void> {
    this.again = true;
    if (!this.reading) {
      this.reading = (async () => {
        while (this.again) {
          this.again = false;
          try {
            const [cur, waiting, opened] = await Promise.all([
              api.currentElicitation(),
              api.waitingElicitations(),
              api.openedPages(),
            ]);
            this.show(cur && this.answered.has(cur.id) ? null : cur);
            this.waiting = waiting;
            this.opened = opened;
          } catch (e) {
            this.notify({ kind: 'error', text: `Could not read the requests from servers: ${api.errorText(e)}` });
          }
        }
        this.reading = null;
      })();
    }
    return this.reading;
  }

  private show(cur: ElicitationView | null): void {
    const isNew = cur !== null && cur.id !== this.current?.id;
    this.current = cur;
    if (isNew && typeof document !== 'undefined' && !document.hasFocus()) {
      void api.notifyUnfocused(cur.id).catch(() => {});
    }
  }

  /** The dialog answered the request on screen: hide it until Go shows the next. */
  answeredCurrent(id: string): void {
    this.answered.add(id);
    if (this.current?.id === id) this.current = null;
    void this.refresh();
  }

  /** Number of requests waiting behind the dialog from the given server. */
  waitingFrom(serverID: string): number {
    return this.waiting.filter((w) => w.serverId === serverID).length;
  }

  async refuse(id: string, action: 'decline' | 'cancel'): Promise<void> {
    try {
      await api.refuseElicitation(id, action);
    } catch (e) {
      this.notify({ kind: 'error', text: api.errorText(e) });
    }
    await this.refresh();
  }

  async mute(serverID: string, minutes: number): Promise<void> {
    try {
      await api.muteServer(serverID, minutes);
      this.notices = this.notices.filter((n) => !(n.kind === 'flood' && n.serverId === serverID));
    } catch (e) {
      this.notify({ kind: 'error', text: api.errorText(e) });
    }
    await this.refresh();
  }

  /** Runs an action on an opened page (finish, open again, stop waiting); errors become notices. */
  async onOpened(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.notify({ kind: 'error', text: api.errorText(e) });
    }
    await this.refresh();
  }

  notify(n: Omit<Notice, 'key'>): void {
    // The same sentence twice in a row says nothing new.
    const rest = this.notices.filter((x) => !(x.kind === n.kind && x.text === n.text));
    this.notices = [...rest, { ...n, key: this.nextKey++ }].slice(-5);
  }

  dismiss(key: number): void {
    this.notices = this.notices.filter((n) => n.key !== key);
  }

  private flood(n: NoticeView): void {
    // One flood notice per server: a new one replaces the old.
    this.notices = this.notices.filter((x) => !(x.kind === 'flood' && x.serverId === n.serverId));
    this.notify({ kind: 'flood', text: n.text, serverId: n.serverId, serverName: n.serverName });
  }
}

export const elicitations = new ElicitationStore();
