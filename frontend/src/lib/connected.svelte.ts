// Reading something of every connected server that offers a capability,
// for as long as a component shows it: the servers connected when it opens,
// then each one that connects while it is open (a server reconnecting, as
// every server does when the first model provider is added).

import type { ServerView } from './api';
import { serversOffering } from './chatprompts';
import { servers } from './servers.svelte';

/** What readEachConnected reports while its component lives. */
export interface ConnectedReads {
  /** True while a server's read has not answered yet (and before the first look). */
  readonly reading: boolean;
}

/**
 * Calls read for each connected server offering capability, once per
 * server, and hands the results of each batch of servers read together to
 * got (merging batches in the server list's order is inServerOrder's job).
 * The answer's reading is true while any read is still out, so a server that
 * connects while the component is open shows as loading rather than as
 * "no server offers this". Call it while a component initialises: it lives
 * as long as the component.
 */
export function readEachConnected<T>(capability: string, read: (s: ServerView) => Promise<T>, got: (batch: T[]) => void): ConnectedReads {
  const asked = new Set<string>();
  let out = 0;
  let reading = $state(true);
  $effect(() => {
    const fresh = serversOffering(servers.list, capability).filter((s) => !asked.has(s.id));
    if (fresh.length === 0) {
      if (out === 0) reading = false;
      return;
    }
    for (const s of fresh) asked.add(s.id);
    out += fresh.length;
    reading = true;
    void Promise.all(fresh.map(read)).then((batch) => {
      got(batch);
      out -= fresh.length;
      if (out === 0) reading = false;
    });
  });
  return {
    get reading() {
      return reading;
    },
  };
}

/** Sorts items by where their server is in the server list. */
export function inServerOrder<T extends { serverId: string }>(items: T[]): T[] {
  const order = (id: string) => servers.list.findIndex((s) => s.id === id);
  return [...items].sort((a, b) => order(a.serverId) - order(b.serverId));
}
