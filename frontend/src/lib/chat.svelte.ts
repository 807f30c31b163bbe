// The Chat pane's state: the conversations, the chosen one's stored
// messages, and the turns running now, fed by Go's chat events.
//
// Go stores each message of a turn as it completes, but while the turn runs
// its read of the messages leaves them out: the window shows the running
// turn from what the events said (the person's message, the model's text and
// reasoning as they stream in, and a card per tool call, updated as its
// state changes). On done or failed the stored messages are read again and
// the live turn is dropped. A turn Gatehouse was closed (or killed) during
// stays stored as far as it got, without its end: the window says so, and Go
// closes it when the conversation goes on.

import { t } from './i18n.svelte';
import * as api from './api';
import { latest, newestVersion } from './latest';
import type { AttachmentRequest, ChatCall, ChatEvent, ChatMessage, Conversation, ProviderList, ProviderView } from './api';

/** One model request of a running turn: its text, its reasoning, its tool calls. */
export interface LiveRound {
  text: string;
  reasoning: string;
  calls: ChatCall[];
}

/** A turn running now, as its events told it. */
export interface LiveTurn {
  /** What the person sent. */
  userText: string;
  /** The resources attached to it. */
  attachments?: AttachmentRequest[];
  rounds: LiveRound[];
  usage: { input: number; output: number } | null;
}

/** How the last turn of a conversation failed, when its sentence was not stored. */
export interface Failure {
  error: string;
  contextTooLong: boolean;
}

/**
 * Whether a stored message ends a turn: the model's answer without tool
 * calls, or the marker of a failed turn (Go's endsTurn).
 */
export function endsTurn(m: ChatMessage): boolean {
  return m.role === 'assistant' && (!m.toolCalls?.length || !!m.error);
}

/**
 * Where the conversation's last turn begins when it never ended (Gatehouse
 * was closed while it ran); the number of messages when it ended.
 */
export function unfinishedFrom(messages: ChatMessage[]): number {
  let i = messages.length;
  while (i > 0 && !endsTurn(messages[i - 1])) i--;
  return i;
}

/**
 * How many messages a conversation opens with, and how many each older
 * page read as the person scrolls up adds (Go stretches a page back to the
 * start of its turn). Opening a conversation of 1,000 messages costs what
 * opening one of 60 does (issue 26, P8c).
 */
export const FIRST_PAGE = 60;
export const OLDER_PAGE = 200;

function newRound(): LiveRound {
  return { text: '', reasoning: '', calls: [] };
}

class ChatStore {
  conversations = $state<Conversation[]>([]);
  query = $state('');
  /** The conversation on screen; '' for a new one not yet started. */
  selected = $state('');
  // Raw, not a deep proxy: the list is only ever replaced, and a proxy for each of a long
  // conversation's messages cost memory and time to draw (issue 26, P8c).
  messages = $state.raw<ChatMessage[]>([]);
  /** The chosen conversation's messages have been read and are on screen (false while they are being read). */
  messagesShown = $state(false);
  /** The conversation has messages older than those read (see loadOlder). */
  more = $state(false);
  /**
   * The Seq of the first message read when the conversation opened: the
   * transcript's keys count from there (transcriptBlocks), so that older
   * pages read later change no key of the rows on screen.
   */
  origin = $state(0);
  /** Running turns by conversation ID. */
  live = $state<Record<string, LiveTurn>>({});
  /** The last failure per conversation, shown under its messages. */
  failures = $state<Record<string, Failure>>({});
  providers = $state<ProviderView[]>([]);
  providersLoaded = $state(false);
  /** A sentence about this pane's own failed call. */
  error = $state('');
  /** What failed, when error says it (ChatErrorText draws Go's sentences that point to Settings with their link). */
  errorCause = $state.raw<unknown>(null);
  /** Tool calls whose cancellation the person asked for, by call ID. */
  cancelling = $state<string[]>([]);
  /**
   * Conversations whose turn ended (done or failed) and that have no new
   * one yet: an event of the ended turn that arrives after its end (Wails'
   * dev server delivers events out of order) must not bring it back.
   */
  ended = new Set<string>();

  private listRead = latest();
  private messagesRead = latest();
  /** The read of older messages under way, if any (one at a time). */
  private olderRead: Promise<void> | null = null;
  private newerProviders = newestVersion();

  /** Loads conversations and providers and follows chat events; returns a function that stops following. */
  start(): () => void {
    const offChat = api.onChat((ev) => this.apply(ev));
    const offProviders = api.onProvidersChanged((list) => this.showProviders(list));
    void this.loadConversations();
    void this.loadProviders();
    return () => {
      offChat();
      offProviders();
    };
  }

  /** Says that a call failed, and keeps why. */
  private fail(e: unknown): void {
    this.error = api.errorText(e);
    this.errorCause = e;
  }

  get current(): Conversation | undefined {
    return this.conversations.find((c) => c.id === this.selected);
  }

  /**
   * How the chosen conversation's last turn failed: as this window saw it,
   * or, after a restart, as it was stored (so the ways on a context that
   * overflowed are still offered), or that it never ended.
   */
  get failure(): Failure | undefined {
    const seen = this.failures[this.selected];
    if (seen) return seen;
    const last = this.messages[this.messages.length - 1];
    if (last?.error) return { error: last.error, contextTooLong: !!last.contextTooLong };
    if (unfinishedFrom(this.messages) < this.messages.length) return { error: t('chat.error.interrupted'), contextTooLong: false };
    return undefined;
  }

  get running(): boolean {
    return this.selected !== '' && this.live[this.selected] !== undefined;
  }

  /** Reads the conversations matching the query; a read overtaken by a newer one is ignored. */
  async loadConversations(): Promise<void> {
    const mine = this.listRead();
    try {
      const list = await api.listConversations(this.query);
      if (mine()) this.conversations = list;
    } catch (e) {
      this.error = t('chat.readConversationsFailed', { detail: api.errorText(e) });
    }
  }

  async loadProviders(): Promise<void> {
    try {
      this.showProviders(await api.listProviders());
    } catch (e) {
      this.error = t('chat.readProvidersFailed', { detail: api.errorText(e) });
    }
    this.providersLoaded = true;
  }

  /** Shows the providers Go read, unless the list shown is newer (events may arrive out of order). */
  showProviders(list: ProviderList): void {
    if (this.newerProviders(list.version)) this.providers = list.providers;
  }

  search(query: string): Promise<void> {
    this.query = query;
    return this.loadConversations();
  }

  /** Shows a conversation and reads its messages. */
  async select(id: string): Promise<void> {
    this.showNone(id);
    if (id) await this.loadMessages();
  }

  /** Shows conversation id with none of its messages read yet. */
  private showNone(id: string): void {
    this.selected = id;
    this.messages = [];
    this.messagesShown = false;
    this.more = false;
    this.origin = 0;
    this.olderRead = null;
  }

  /**
   * Reads the chosen conversation's messages: its newest page when none
   * was read, else again from the oldest one read on (a turn ended, tool
   * results were dropped), keeping the older pages read meanwhile; then
   * runs in the same update as their drawing.
   */
  async loadMessages(then?: () => void): Promise<void> {
    const id = this.selected;
    const mine = this.messagesRead();
    if (!id) return;
    const from = this.messages[0]?.seq ?? 0;
    try {
      const page = await api.conversationMessages(id, from ? { from } : { limit: FIRST_PAGE });
      if (mine() && id === this.selected) {
        if (from) {
          this.messages = [...this.messages.filter((m) => m.seq < from), ...page.messages];
        } else {
          this.messages = page.messages;
          this.more = page.more;
          this.origin ||= page.messages[0]?.seq ?? 0;
        }
        this.messagesShown = true;
        then?.();
      }
    } catch (e) {
      this.error = t('chat.readMessagesFailed', { detail: api.errorText(e) });
    }
  }

  /**
   * Reads the page of messages before the oldest one read (the person
   * scrolled up to it), or, with all, every older message (to find text in
   * the whole conversation). One read at a time: a call while one is under
   * way waits for it (and then, with all, reads the rest).
   */
  loadOlder(all = false): Promise<void> {
    const id = this.selected;
    if (!id || !this.more) return Promise.resolve();
    if (this.olderRead) return all ? this.olderRead.then(() => this.loadOlder(true)) : this.olderRead;
    const before = this.messages[0]?.seq ?? 0;
    if (!before) return Promise.resolve();
    const read = this.readOlder(id, before, all).finally(() => {
      if (this.olderRead === read) this.olderRead = null;
    });
    this.olderRead = read;
    return read;
  }

  /** Puts the page before message before (every older message, with all) above the messages read. */
  private async readOlder(id: string, before: number, all: boolean): Promise<void> {
    try {
      const page = await api.conversationMessages(id, { before, limit: all ? 0 : OLDER_PAGE });
      if (id === this.selected && this.messages[0]?.seq === before) {
        this.messages = [...page.messages, ...this.messages];
        this.more = page.more;
      }
    } catch (e) {
      if (id === this.selected) {
        this.error = t('chat.readMessagesFailed', { detail: api.errorText(e) });
        this.more = false; // not asked again at each scroll; opening the conversation again reads them
      }
    }
  }

  /**
   * Sends text, with any attachments, in the chosen conversation, starting
   * one with providerID first when none is chosen. Returns whether it was
   * sent.
   */
  async send(text: string, providerID: string, attachments: AttachmentRequest[] = []): Promise<boolean> {
    const t = text.trim();
    if (!t && attachments.length === 0) return false;
    this.error = '';
    try {
      let id = this.selected;
      if (!id) {
        const conv = await api.newConversation(providerID, '', '', []);
        this.conversations = [conv, ...this.conversations];
        this.showNone((id = conv.id));
      }
      delete this.failures[id];
      this.ended.delete(id);
      this.live[id] = { userText: t, attachments, rounds: [newRound()], usage: null };
      try {
        if (attachments.length > 0) await api.sendWithAttachments(id, t, attachments);
        else await api.sendMessage(id, t);
      } catch (e) {
        delete this.live[id];
        throw e;
      }
      void this.loadConversations();
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  /** Replaces a conversation in the list with what Go saved (its settings changed). */
  updated(conv: Conversation): void {
    const i = this.conversations.findIndex((c) => c.id === conv.id);
    if (i >= 0) this.conversations[i] = conv;
  }

  /**
   * The way on when the conversation outgrew the model's context: drops the
   * tool results before the person's last message (the model gets a
   * placeholder for each; the window still shows them) and answers that
   * message again.
   */
  async dropAndRetry(): Promise<void> {
    const id = this.selected;
    if (!id) return;
    this.error = '';
    try {
      await api.dropOldToolResults(id);
    } catch (e) {
      this.fail(e);
      return;
    }
    delete this.failures[id];
    await this.loadMessages();
    this.ended.delete(id); // the retry is a new turn: its events count
    this.live[id] = { userText: '', rounds: [newRound()], usage: null };
    try {
      await api.retryTurn(id);
    } catch (e) {
      delete this.live[id];
      this.fail(e);
    }
  }

  /**
   * The other way on: a new conversation with the chosen one's provider,
   * model, system prompt and servers. Returns the person's last message, for
   * the composer, or null when no conversation was started.
   */
  async continueInNew(): Promise<string | null> {
    const conv = this.current;
    if (!conv) return null;
    const last = [...this.messages].reverse().find((m) => m.role === 'user')?.text ?? '';
    this.error = '';
    try {
      const fresh = await api.newConversation(conv.providerId ?? '', conv.model ?? '', conv.systemPrompt ?? '', conv.servers ?? []);
      this.conversations = [fresh, ...this.conversations];
      await this.select(fresh.id);
      return last;
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  /** Saves the chosen conversation as Markdown where the person says; the path, or '' when cancelled or failed. */
  async exportCurrent(): Promise<string> {
    if (!this.selected) return '';
    this.error = '';
    try {
      return await api.exportConversation(this.selected);
    } catch (e) {
      this.error = t('chat.exportFailed', { detail: api.errorText(e) });
      return '';
    }
  }

  /** Cancels one running tool call of the conversation on screen; the model reads that the person cancelled it. */
  async cancelCall(callID: string): Promise<void> {
    if (!this.selected || this.cancelling.includes(callID)) return;
    this.cancelling = [...this.cancelling, callID];
    try {
      await api.cancelChatCall(this.selected, callID);
    } catch (e) {
      this.fail(e);
      this.cancelling = this.cancelling.filter((id) => id !== callID);
    }
  }

  async stop(): Promise<void> {
    if (!this.selected) return;
    try {
      await api.stopTurn(this.selected);
    } catch (e) {
      this.fail(e);
    }
  }

  async rename(id: string, title: string): Promise<void> {
    try {
      await api.renameConversation(id, title.trim());
      await this.loadConversations();
    } catch (e) {
      this.fail(e);
    }
  }

  async remove(id: string): Promise<void> {
    try {
      await api.deleteConversation(id);
      delete this.live[id];
      delete this.failures[id];
      if (this.selected === id) await this.select('');
      await this.loadConversations();
    } catch (e) {
      this.fail(e);
    }
  }

  /** Applies one event of a running turn. */
  apply(ev: ChatEvent): void {
    const id = ev.conversationId;
    if (ev.kind === 'done' || ev.kind === 'failed') {
      this.ended.add(id);
      if (ev.kind === 'failed') this.failures[id] = { error: ev.error ?? '', contextTooLong: !!ev.contextTooLong };
      // The streamed turn stays on screen until the stored messages replace
      // it: dropping it first blanked the end of the transcript for as long
      // as the read took (P8b in bench/).
      const ending = this.live[id];
      const drop = () => {
        if (this.live[id] === ending) delete this.live[id]; // not a turn started since
      };
      // Dropped with the same update that draws the stored messages, so
      // that the window never draws a call twice: its card (and an app in
      // it) moves from the turn to its stored message (transcript.ts).
      if (id === this.selected) void this.loadMessages(drop).finally(drop);
      else drop();
      void this.loadConversations();
      return;
    }
    if (this.ended.has(id)) return;
    // A turn this window did not start (or started before a reload).
    const turn = (this.live[id] ??= { userText: '', rounds: [newRound()], usage: null });
    const round = turn.rounds[turn.rounds.length - 1];
    switch (ev.kind) {
      case 'text':
        round.text += ev.text ?? '';
        break;
      case 'reasoning':
        round.reasoning += ev.text ?? '';
        break;
      case 'round':
        turn.rounds.push(newRound());
        break;
      case 'usage':
        if (ev.usage) {
          const u = turn.usage ?? { input: 0, output: 0 };
          turn.usage = { input: u.input + ev.usage.inputTokens, output: u.output + ev.usage.outputTokens };
        }
        break;
      case 'call':
        if (ev.call) {
          const call = ev.call;
          const owner = turn.rounds.find((r) => r.calls.some((c) => c.id === call.id)) ?? round;
          const i = owner.calls.findIndex((c) => c.id === call.id);
          if (i >= 0) owner.calls[i] = call;
          else owner.calls.push(call);
        }
        break;
    }
  }
}

export const chat = new ChatStore();
