// The window's view of the broker's questions: the one on screen, those
// waiting behind it, the web pages the person opened, and notices.
//
// Go's broker owns all of it and publishes a versioned snapshot on every
// change (EventQuestions); this store renders the newest snapshot and never
// asks Go again to learn what an event already said. A snapshot older than
// the one shown is ignored (Wails may deliver events out of order). A page
// that loads asks for the snapshot once. The only state kept here is what
// belongs to this window: sentences about its own failed calls.

import * as api from './api';
import type { BrokerNotice, OpenedView, QuestionView, Snapshot, WaitingView } from './api';
import { msg, t } from './i18n.svelte';

/** A notice shown above the window's content until dismissed. */
export interface Notice {
  key: string;
  kind: string;
  text: string;
  serverId?: string;
  serverName?: string;
}

const empty: Snapshot = { version: 0, waiting: [], opened: [], notices: [] };

class QuestionStore {
  snapshot = $state<Snapshot>(empty);
  /** Sentences about this window's own failed calls. */
  private errors = $state<Notice[]>([]);
  private nextKey = 1;

  get current(): QuestionView | null {
    return this.snapshot.current ?? null;
  }
  get waiting(): WaitingView[] {
    return this.snapshot.waiting;
  }
  /** Web pages opened in the browser, waiting for their servers to confirm. */
  get opened(): OpenedView[] {
    return this.snapshot.opened;
  }
  /** The broker's notices, then this window's errors. */
  get notices(): Notice[] {
    const fromBroker = this.snapshot.notices.map((n: BrokerNotice) => ({
      key: n.id,
      kind: n.kind,
      text: msg(n.message),
      serverId: n.serverId,
      serverName: n.serverName,
    }));
    return [...fromBroker, ...this.errors];
  }

  /** Follows the broker's snapshots; returns a function that stops following. */
  start(): () => void {
    const off = api.onQuestions((s) => this.apply(s));
    void api
      .questionsSnapshot()
      .then((s) => this.apply(s))
      .catch((e) => this.notify({ kind: 'error', text: t('questions.readFailed', { detail: api.errorText(e) }) }));
    return off;
  }

  /** Shows s unless a newer snapshot is already shown. */
  apply(s: Snapshot | null | undefined): void {
    if (!s || s.version < this.snapshot.version) return;
    const before = this.snapshot.current?.id;
    this.snapshot = s;
    const cur = s.current;
    if (cur && cur.id !== before && typeof document !== 'undefined' && !document.hasFocus()) {
      void api.notifyUnfocused(cur.id).catch(() => {});
    }
  }

  /** Number of questions waiting behind the dialog from the given server. */
  waitingFrom(serverID: string): number {
    return this.waiting.filter((w) => w.serverId === serverID).length;
  }

  /** Runs an action on a question or page; its error becomes a notice. */
  async run(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.notify({ kind: 'error', text: api.errorText(e) });
    }
  }

  refuse(id: string, action: 'decline' | 'cancel'): Promise<void> {
    return this.run(() => api.refuseQuestion(id, action));
  }

  mute(serverID: string, minutes: number): Promise<void> {
    return this.run(() => api.muteServer(serverID, minutes));
  }

  notify(n: Omit<Notice, 'key'>): void {
    // The same sentence twice in a row says nothing new.
    const rest = this.errors.filter((x) => !(x.kind === n.kind && x.text === n.text));
    this.errors = [...rest, { ...n, key: `local-${this.nextKey++}` }].slice(-5);
  }

  dismiss(key: string): void {
    if (this.errors.some((n) => n.key === key)) {
      this.errors = this.errors.filter((n) => n.key !== key);
      return;
    }
    void this.run(() => api.dismissNotice(key));
  }
}

export const questions = new QuestionStore();
