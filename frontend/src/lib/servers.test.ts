import { describe, expect, it, vi } from 'vitest';
import * as api from './api';
import type { ServerList } from './api';
import { servers } from './servers.svelte';
import { server, serverList } from '../test/fixtures';

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
  it('shows the list servers:changed carries without reading it again, and a list read before it that arrives late changes nothing', async () => {
    let fire: (list: ServerList) => void = () => {};
    const onChanged = vi.spyOn(api, 'onServersChanged').mockImplementation((cb) => {
      fire = cb;
      return () => {};
    });
    const list = vi.spyOn(api, 'listServers').mockImplementation(async () => serverList([server('a', 'A', { state: 'connecting' })]));
    const stop = servers.start();
    await vi.waitFor(() => expect(servers.list[0]?.status.state).toBe('connecting'));

    // Go read "connecting" and then "connected"; the events arrive the other way round.
    const stale = serverList([server('a', 'A', { state: 'connecting' })]);
    fire(serverList([server('a', 'A', { state: 'connected' })]));
    expect(servers.list[0].status.state).toBe('connected');
    fire(stale);
    expect(servers.list[0].status.state).toBe('connected');
    expect(list).toHaveBeenCalledTimes(1);
    stop();
    onChanged.mockRestore();
    list.mockRestore();
  });
});

describe('servers store starting from the list Go wrote into the page', () => {
  it('shows that list at once and reads it again after the first frame, for what changed since', async () => {
    const onChanged = vi.spyOn(api, 'onServersChanged').mockImplementation(() => () => {});
    const page = serverList([server('a', 'A', { state: 'connecting' })]);
    const list = vi.spyOn(api, 'listServers').mockImplementation(async () => serverList([server('a', 'A', { state: 'connected' })]));
    servers.loaded = false;
    servers.takeStart(page);
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
