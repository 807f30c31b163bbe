// The tools store: the filter over a server's tools, and what the Tools pane
// keeps for the person — the chosen tool, each tool's draft, the last
// result — until the server's tool list says a tool is gone or changed.
// api.ts is mocked; e2e/tools.test.mjs drives the real pane.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { callKey, filterTools, tools } from './tools.svelte';
import { field, result, tool } from '../test/fixtures';

vi.mock('./api', async (orig) => (await import('../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

describe('filterTools', () => {
  const list = [
    tool('echo', { title: 'Echo Tool', description: 'Echoes back the input string' }),
    tool('get-sum', { title: 'Get Sum Tool', description: 'Returns the sum of two numbers' }),
    tool('plan_trip', { title: 'Plan a trip', description: 'Asks where to and books it' }),
  ];
  const cases: { name: string; filter: string; want: string[] }[] = [
    { name: 'an empty filter shows every tool, in the server’s order', filter: '', want: ['echo', 'get-sum', 'plan_trip'] },
    { name: 'spaces alone are an empty filter', filter: '   ', want: ['echo', 'get-sum', 'plan_trip'] },
    { name: 'matches the name', filter: 'plan_', want: ['plan_trip'] },
    { name: 'matches the title', filter: 'sum tool', want: ['get-sum'] },
    { name: 'matches the description', filter: 'numbers', want: ['get-sum'] },
    { name: 'ignores case', filter: 'ECHO', want: ['echo'] },
    { name: 'every word must match, anywhere', filter: 'trip books', want: ['plan_trip'] },
    { name: 'a word that matches nothing leaves nothing', filter: 'trip weather', want: [] },
    { name: 'a part of a word matches', filter: 'tool', want: ['echo', 'get-sum'] },
  ];
  it.each(cases)('$name', ({ filter, want }) => {
    expect(filterTools(list, filter).map((t) => t.name)).toEqual(want);
  });
});

describe('tools store', () => {
  const add = tool('add', {
    inputSchema: '{"properties":{"a":{"type":"number"}}}',
    form: { complete: true, secretFields: [], fields: [field('a', 'number', { label: 'a' })] },
  });
  const forecast = tool('forecast', {
    inputSchema: '{"properties":{"city":{"type":"string"}}}',
    form: { complete: true, secretFields: [], fields: [field('city', 'text', { label: 'city' })] },
  });
  let listChanged: (serverID: string) => void = () => {};

  beforeEach(async () => {
    vi.clearAllMocks();
    tools.reset();
    mocked.onToolsChanged.mockImplementation((cb) => {
      listChanged = cb;
      return () => {};
    });
    mocked.listTools.mockResolvedValue([add, forecast]);
    mocked.callTool.mockResolvedValue(result());
    tools.start();
    tools.choose('s1', 'add');
    await tools.lists.load('s1');
  });

  /** The server says its tools changed (tools/list_changed) and now lists these. */
  async function serverNowLists(...list: ReturnType<typeof tool>[]) {
    mocked.listTools.mockResolvedValue(list);
    listChanged('s1');
    await vi.waitFor(() => expect(tools.lists.get('s1')?.loading).toBe(false));
  }

  it('keeps each tool’s draft apart', () => {
    tools.openDraft('s1', add, add.form).form.values.a = '2';
    tools.openDraft('s1', forecast, forecast.form).form.values.city = 'Oslo';
    expect(tools.openDraft('s1', add, add.form).form.values.a).toBe('2');
    expect(tools.draft('s1', forecast)?.form.values.city).toBe('Oslo');
  });

  it('a tool the server no longer lists loses its choice, draft and result', async () => {
    tools.openDraft('s1', add, add.form).form.values.a = '2';
    await tools.run('s1', 'add', '{"a":2}');
    expect(tools.call('s1', 'add')?.result).not.toBeNull();

    await serverNowLists(forecast);
    expect(tools.chosen.s1).toBeUndefined();
    expect(tools.drafts[callKey('s1', 'add')]).toBeUndefined();
    expect(tools.call('s1', 'add')).toBeUndefined();

    // When it comes back, it starts fresh.
    await serverNowLists(add, forecast);
    expect(tools.openDraft('s1', add, add.form).form.values.a).toBe('');
  });

  it('a tool whose input schema changed starts a fresh draft', async () => {
    tools.openDraft('s1', forecast, forecast.form).form.values.city = 'Oslo';
    const changed = { ...forecast, schemaId: 'schema-2', inputSchema: '{"properties":{"town":{"type":"string"}}}' };
    await serverNowLists(add, changed);
    expect(tools.draft('s1', changed)).toBeUndefined();
    expect(tools.openDraft('s1', changed, changed.form).form.values.city).toBe('');
  });

  it('a tool still listed keeps its choice, draft and result', async () => {
    tools.openDraft('s1', add, add.form).form.values.a = '2';
    await tools.run('s1', 'add', '{"a":2}');
    await serverNowLists(add);
    expect(tools.chosen.s1).toBe('add');
    expect(tools.draft('s1', add)?.form.values.a).toBe('2');
    expect(tools.call('s1', 'add')?.result).not.toBeNull();
  });

  it('a call still running for a removed tool stays, so that it can be cancelled', async () => {
    mocked.callTool.mockImplementation(() => new Promise(() => {}));
    void tools.run('s1', 'add', '{}');
    await serverNowLists(forecast);
    expect(tools.call('s1', 'add')?.running).toBe(true);
  });

  it('another server’s list changing leaves this server’s drafts alone', async () => {
    tools.openDraft('s1', add, add.form).form.values.a = '2';
    mocked.listTools.mockResolvedValue([]);
    await tools.lists.load('s2');
    expect(tools.draft('s1', add)?.form.values.a).toBe('2');
  });

  it('coming back to a connection already loaded does not load it again; a reconnect does', async () => {
    mocked.listTools.mockClear();
    tools.lists.follow('s1', 'since-1');
    tools.lists.follow('s1', 'since-1');
    expect(mocked.listTools).toHaveBeenCalledTimes(1);
    tools.lists.follow('s1', 'since-2');
    expect(mocked.listTools).toHaveBeenCalledTimes(2);
  });

  it('each server keeps its own filter: switching servers neither carries it over nor loses it (issue 26)', () => {
    tools.serverID = 's1';
    tools.filter = 'weather';
    tools.serverID = 's2';
    expect(tools.filter).toBe('');
    tools.filter = 'files';
    tools.serverID = 's1';
    expect(tools.filter).toBe('weather');
    tools.serverID = 's2';
    expect(tools.filter).toBe('files');
    tools.reset();
    tools.serverID = 's1';
    expect(tools.filter).toBe('');
  });

  it('choose shows the tool and clears the filter, so that the list shows it', () => {
    tools.filter = 'weather';
    tools.choose('demo', 'plan_trip');
    expect([tools.serverID, tools.chosen.demo, tools.filter]).toEqual(['demo', 'plan_trip', '']);
  });
});
