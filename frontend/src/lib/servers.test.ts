import { describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { servers } from './servers.svelte';
import { server } from '../test/fixtures';

describe('servers store', () => {
  it('a view returned by Add does not overwrite a newer status from the event', () => {
    servers.set([server('a', 'A', { state: 'connected' })]);
    servers.addIfMissing(server('a', 'A', { state: 'connecting' }));
    expect(servers.list.map((s) => s.status.state)).toEqual(['connected']);
  });

  it('a server the event has not listed yet is shown at once', () => {
    servers.set([]);
    servers.addIfMissing(server('b', 'B', { state: 'connecting' }));
    expect(servers.list.map((s) => s.id)).toEqual(['b']);
  });
});

describe('servers store following Go', () => {
  it('reads the list again on every servers:changed, whatever the event carried', async () => {
    let fire: (list: unknown) => void = () => {};
    const onChanged = vi.spyOn(api, 'onServersChanged').mockImplementation((cb) => {
      fire = cb as never;
      return () => {};
    });
    let now = [server('a', 'A', { state: 'connecting' })];
    const list = vi.spyOn(api, 'listServers').mockImplementation(async () => now);
    const stop = servers.start();
    await servers.refresh();
    expect(servers.list[0].status.state).toBe('connecting');

    // Go is connected by now; a stale "connecting" event arrives last.
    now = [server('a', 'A', { state: 'connected' })];
    fire([server('a', 'A', { state: 'connecting' })]);
    await servers.refresh();
    expect(servers.list[0].status.state).toBe('connected');
    stop();
    onChanged.mockRestore();
    list.mockRestore();
  });
});

describe('servers store starting from the list Go wrote into the page', () => {
  it('shows that list at once and reads it again after the first frame, for what changed since', async () => {
    const onChanged = vi.spyOn(api, 'onServersChanged').mockImplementation(() => () => {});
    const list = vi.spyOn(api, 'listServers').mockImplementation(async () => [server('a', 'A', { state: 'connected' })]);
    servers.loaded = false;
    servers.takeStart([server('a', 'A', { state: 'connecting' })]);
    expect(servers.loaded).toBe(true);
    const stop = servers.start();
    expect(servers.list[0].status.state).toBe('connecting');
    expect(list).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(servers.list[0].status.state).toBe('connected'));
    stop();
    onChanged.mockRestore();
    list.mockRestore();
  });
});
