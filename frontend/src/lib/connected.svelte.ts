// Reading something of every connected server that offers a capability,
// for as long as a component shows it: the servers connected when it opens,
// then each one that connects while it is open (a server reconnecting, as
// every server does when the first model provider is added).

import type { ServerView } from './api';
import { serversOffering } from './chatprompts';
import { servers } from './servers.svelte';

/**
 * Calls read for each connected server offering capability, once per
 * server, and hands the results of each batch of servers read together to
 * got (merging batches in the server list's order is inServerOrder's job);
 * ready runs when there is nothing (more) to wait for right now. Call it while a component initialises: it lives as long as the
 * component.
 */
export function readEachConnected<T>(capability: string, read: (s: ServerView) => Promise<T>, got: (batch: T[]) => void, ready: () => void): void {
  const asked = new Set<string>();
  $effect(() => {
    const fresh = serversOffering(servers.list, capability).filter((s) => !asked.has(s.id));
    if (fresh.length === 0) {
      if (asked.size === 0) ready();
      return;
    }
    for (const s of fresh) asked.add(s.id);
    void Promise.all(fresh.map(read)).then((batch) => {
      got(batch);
      ready();
    });
  });
}

/** Sorts items by where their server is in the server list. */
export function inServerOrder<T extends { serverId: string }>(items: T[]): T[] {
  const order = (id: string) => servers.list.findIndex((s) => s.id === id);
  return [...items].sort((a, b) => order(a.serverId) - order(b.serverId));
}
