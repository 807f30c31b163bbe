// One list per server, as the Tools pane's tabs show them (its tools, its
// resources and templates, its prompts): read when a server is first shown,
// again when it reconnects or Go says the list changed. The newest read wins.

import * as api from './api';
import { latest } from './latest';

/** A server's list as a tab shows it. */
export interface Listed<T> {
  value: T;
  loading: boolean;
  error: string;
  /** The server offers no such list at all: error says so. */
  notOffered: boolean;
}

/** Every server's list of one kind, each read from Go by read. */
export class ServerLists<T> {
  byServer = $state<Record<string, Listed<T>>>({});
  // Not shown, so not $state: the connection each list was read for (the
  // time it connected), and the newest read per server.
  private loadedFor: Record<string, string> = {};
  private reads = latest();

  constructor(
    private readonly read: (serverID: string) => Promise<T>,
    /** What a list holds before its first read and after a failed one. */
    private readonly empty: T,
    /** The key of Go's sentence saying that a server offers no such list. */
    private readonly notOfferedKey = '',
    /** Called with each list read, to drop what was kept for items gone. */
    private readonly onread?: (serverID: string, value: T) => void,
  ) {}

  get(serverID: string): Listed<T> | undefined {
    return this.byServer[serverID];
  }

  /** Reads a server's list unless it was read for this connection already: a reconnect reads it again, coming back to the tab does not. */
  follow(serverID: string, connection: string): void {
    if (this.loadedFor[serverID] === connection && this.byServer[serverID]) return;
    this.loadedFor[serverID] = connection;
    void this.load(serverID);
  }

  /** Go said a server's list changed: read again if it was read before. */
  changed(serverID: string): void {
    if (this.byServer[serverID]) void this.load(serverID);
  }

  /** Reads a server's list; what was shown stays while it is read. */
  async load(serverID: string): Promise<void> {
    const mine = this.reads(serverID);
    this.byServer[serverID] = { value: this.byServer[serverID]?.value ?? this.empty, loading: true, error: '', notOffered: false };
    try {
      const value = await this.read(serverID);
      if (!mine()) return;
      this.byServer[serverID] = { value, loading: false, error: '', notOffered: false };
      this.onread?.(serverID, value);
    } catch (e) {
      if (!mine()) return;
      const notOffered = this.notOfferedKey !== '' && e instanceof api.GoError && e.is(this.notOfferedKey);
      this.byServer[serverID] = { value: this.empty, loading: false, error: api.errorText(e), notOffered };
    }
  }

  /** Forgets every list (for tests). */
  reset(): void {
    this.byServer = {};
    this.loadedFor = {};
    this.reads = latest();
  }
}

/**
 * What is typed in a filter of the Tools pane, kept per server: the filter of
 * the server shown (shown()) is the one read and written, so that switching
 * servers neither carries one server's filter to another ("0 of 2 tools")
 * nor loses it on the way back (issue 26).
 */
export class ServerFilter {
  private text = $state<Record<string, string>>({});

  constructor(private readonly shown: () => string) {}

  /** The shown server's filter ('' when nothing is typed). */
  get value(): string {
    return this.text[this.shown()] ?? '';
  }

  set value(v: string) {
    this.text[this.shown()] = v;
  }

  /** Forgets every server's filter. */
  reset(): void {
    this.text = {};
  }
}
