// Component tests of the Resources tab. api.ts is mocked: these tests check
// what the tab shows of what Go sends (as text, images only from allowed
// data: URLs), what it asks Go, and that it keeps its state. Go's side is
// tested in app/ and mcp/, and the whole end to end in e2e/resources.test.mjs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { CompletionView, ResourceContentView, ResourceListView } from '../../lib/api';
import { servers } from '../../lib/servers.svelte';
import { tools } from '../../lib/tools.svelte';
import { resources } from '../../lib/resources.svelte';
import ResourcesView from './ResourcesView.svelte';
import ToolRunner from '../tools/ToolRunner.svelte';
import { server } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const hostile = '<img src=x onerror="window.__pwned=1">';
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function listView(over: Partial<ResourceListView> = {}): ResourceListView {
  return {
    resources: [
      { uri: 'demo://note', name: 'note', title: 'Last note', description: 'The last message', mimeType: 'text/plain', size: 0 },
      { uri: 'demo://logo.png', name: 'logo', title: 'Logo', description: '', mimeType: 'image/png', size: 68 },
    ],
    templates: [
      {
        uriTemplate: 'demo://forecast/{city}',
        name: 'forecast',
        title: 'Forecast',
        description: 'The weather in a city',
        mimeType: 'application/json',
        variables: ['city'],
      },
    ],
    more: false,
    canSubscribe: false,
    canComplete: true,
    subscribed: [],
    ...over,
  };
}

function item(over: Partial<ResourceContentView> = {}): ResourceContentView {
  return { index: 0, uri: 'demo://note', mimeType: 'text/plain', kind: 'text', text: '', offset: 0, nextOffset: 0, size: 0, dataUrl: '', fileName: 'note.txt', ...over };
}

function readOf(uri: string, ...contents: ResourceContentView[]) {
  return { serverId: 's1', uri, contents };
}

function completion(values: string[], over: Partial<CompletionView> = {}): CompletionView {
  return { values, hasMore: false, total: values.length, offered: true, ...over };
}

async function show(over: Partial<ResourceListView> = {}) {
  mocked.listResources.mockResolvedValue(listView(over));
  const user = userEvent.setup();
  const view = render(ResourcesView, { server: server('s1', 'Demo', { capabilities: ['tools', 'resources', 'completions'] }) });
  await screen.findByRole('navigation', { name: 'Resources of Demo' });
  return { user, view };
}

describe('ResourcesView', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    resources.reset();
    tools.reset();
    delete (window as unknown as { __pwned?: number }).__pwned;
  });

  it('lists resources and templates with their addresses, and says when the server lists more', async () => {
    await show({ more: true });
    expect(screen.getByRole('heading', { name: '2 resources' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '1 template' })).toBeTruthy();
    expect(screen.getByText('demo://forecast/{city}')).toBeTruthy();
    expect(screen.getByText(/lists more than Gatehouse shows/)).toBeTruthy();
    expect(mocked.listResources).toHaveBeenCalledWith('s1');
  });

  it('says when the server offers no resources at all', async () => {
    const said = { key: 'mcp.resources.notOffered', args: { server: 'Demo' }, text: 'Demo offers no resources' };
    mocked.listResources.mockRejectedValue(new api.GoError(said, said.text));
    render(ResourcesView, { server: server('s1', 'Demo') });
    expect(await screen.findByText('Demo offers no resources.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['a resource title', { title: hostile }],
    ['a resource description', { description: hostile }],
  ])('hostile markup in %s is literal text', async (_, over) => {
    const r = { ...listView().resources[0], ...over };
    const { view } = await show({ resources: [r, listView().resources[1]] });
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.textContent).toContain(hostile);
  });

  it("reads a resource when it is chosen and shows its text as text, a page at a time", async () => {
    mocked.readResource.mockResolvedValue(readOf('demo://note', item({ text: `first ${hostile}`, nextOffset: 10, size: 20 })));
    mocked.resourcePage.mockResolvedValue(item({ text: ' second page', offset: 10, nextOffset: 0, size: 20 }));
    const { user, view } = await show();
    await user.click(screen.getByRole('button', { name: /Last note/ }));
    await screen.findByText(/first/);
    expect(mocked.readResource).toHaveBeenCalledWith('s1', 'demo://note');
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.querySelector('pre')?.textContent).toBe(`first ${hostile}`);
    expect(screen.getByText('Showing 10 bytes of 20 bytes.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(view.container.querySelector('pre')?.textContent).toBe(`first ${hostile} second page`));
    expect(mocked.resourcePage).toHaveBeenCalledWith('s1', 'demo://note', 0, 10);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('shows JSON as Go pretty-printed it, with a Copy button', async () => {
    const json = '{\n  "city": "Oslo"\n}';
    mocked.readResource.mockResolvedValue(readOf('demo://note', item({ kind: 'json', mimeType: 'application/json', text: json, size: json.length })));
    const { user, view } = await show();
    await user.click(screen.getByRole('button', { name: /Last note/ }));
    await waitFor(() => expect(view.container.querySelector('.code-block code')?.textContent).toContain('"city": "Oslo"'));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it.each([
    ['a PNG from Go is shown', item({ kind: 'image', mimeType: 'image/png', dataUrl: `data:image/png;base64,${png}` }), true],
    ['an image whose data: URL is HTML is not', item({ kind: 'image', mimeType: 'image/png', dataUrl: 'data:text/html;base64,PGI+' }), false],
    ['an SVG is not', item({ kind: 'image', mimeType: 'image/svg+xml', dataUrl: 'data:image/svg+xml;base64,PHN2Zy8+' }), false],
    ['a binary is not, even with an image data: URL', item({ kind: 'binary', mimeType: 'application/pdf', dataUrl: `data:image/png;base64,${png}` }), false],
  ])('images: %s', async (_, content, shown) => {
    mocked.readResource.mockResolvedValue(readOf('demo://logo.png', { ...content, uri: 'demo://logo.png', size: 68 }));
    const { user, view } = await show();
    await user.click(screen.getByRole('button', { name: /Logo/ }));
    await screen.findByRole('button', { name: 'Save…' });
    const img = view.container.querySelector('img');
    if (shown) expect(img?.getAttribute('src')).toBe(`data:image/png;base64,${png}`);
    else expect(img).toBeNull();
  });

  it('offers a binary for saving with its type and size, and says where it was saved', async () => {
    mocked.readResource.mockResolvedValue(readOf('demo://logo.png', item({ uri: 'demo://logo.png', kind: 'binary', mimeType: 'application/pdf', size: 2048 })));
    mocked.saveResource.mockResolvedValue('/home/me/logo.pdf');
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Logo/ }));
    expect(await screen.findByText('A file of type application/pdf, 2.0 KB: save it to open it with another program.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save…' }));
    expect(await screen.findByText('Saved to /home/me/logo.pdf')).toBeTruthy();
    expect(mocked.saveResource).toHaveBeenCalledWith('s1', 'demo://logo.png', 0);
  });

  it('says why a read failed', async () => {
    mocked.readResource.mockRejectedValue(new Error('resource not found'));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Last note/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not read it: resource not found');
  });

  it("fills a template's variable from the server's suggestions, then reads the address it makes", async () => {
    mocked.completeTemplate.mockResolvedValue(completion(['Oslo', 'Osaka']));
    mocked.expandTemplate.mockResolvedValue('demo://forecast/Oslo');
    mocked.readResource.mockResolvedValue(readOf('demo://forecast/Oslo', item({ uri: 'demo://forecast/Oslo', kind: 'json', text: '{"sky": "clear"}' })));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Forecast/ }));
    await user.type(screen.getByLabelText('city'), 'Os');
    const suggestions = await screen.findByRole('list', { name: 'Suggestions for city' });
    expect(mocked.completeTemplate).toHaveBeenLastCalledWith('s1', 'demo://forecast/{city}', 'city', 'Os', {});
    await user.click(within(suggestions).getByRole('button', { name: 'Oslo' }));
    expect((screen.getByLabelText('city') as HTMLInputElement).value).toBe('Oslo');
    await user.click(screen.getByRole('button', { name: 'Read' }));
    await screen.findByText(/"sky": "clear"/);
    expect(mocked.expandTemplate).toHaveBeenCalledWith('demo://forecast/{city}', { city: 'Oslo' });
    expect(mocked.readResource).toHaveBeenCalledWith('s1', 'demo://forecast/Oslo');
  });

  it('shows the latest answer of the server when an older one comes late', async () => {
    let first!: (c: CompletionView) => void;
    mocked.completeTemplate
      .mockImplementationOnce(() => new Promise((resolve) => (first = resolve)))
      .mockResolvedValueOnce(completion(['Bergen']));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Forecast/ }));
    const field = screen.getByLabelText('city');
    await user.click(field);
    await waitFor(() => expect(mocked.completeTemplate).toHaveBeenCalledTimes(1));
    await user.type(field, 'B');
    await screen.findByRole('button', { name: 'Bergen' });
    first(completion(['Oslo']));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Oslo' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Bergen' })).toBeTruthy();
  });

  it('shows nothing, and stops asking, when the server suggests nothing', async () => {
    mocked.completeTemplate.mockResolvedValue(completion([], { offered: false }));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Forecast/ }));
    await user.type(screen.getByLabelText('city'), 'O');
    await waitFor(() => expect(mocked.completeTemplate).toHaveBeenCalledTimes(1));
    await user.type(screen.getByLabelText('city'), 'slo');
    await new Promise((r) => setTimeout(r, 300));
    expect(mocked.completeTemplate).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Suggestions:')).toBeNull();
  });

  it('does not ask for suggestions when the server cannot give them', async () => {
    const { user } = await show({ canComplete: false });
    await user.click(screen.getByRole('button', { name: /Forecast/ }));
    await user.type(screen.getByLabelText('city'), 'Oslo');
    await new Promise((r) => setTimeout(r, 300));
    expect(mocked.completeTemplate).not.toHaveBeenCalled();
  });

  it('says what is wrong when the values make no address, and reads nothing', async () => {
    mocked.expandTemplate.mockRejectedValue(new Error('the variable city is empty'));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Forecast/ }));
    await user.click(screen.getByRole('button', { name: 'Read' }));
    expect((await screen.findByRole('alert')).textContent).toBe('the variable city is empty');
    expect(mocked.readResource).not.toHaveBeenCalled();
  });

  it('offers Watch for changes only when the server sends updates', async () => {
    mocked.readResource.mockResolvedValue(readOf('demo://note', item({ text: 'hi' })));
    const { user } = await show({ canSubscribe: false });
    await user.click(screen.getByRole('button', { name: /Last note/ }));
    await screen.findByText('hi');
    expect(screen.queryByRole('switch', { name: 'Watch for changes' })).toBeNull();
  });

  it('subscribes, shows a change when it arrives, and reads the new version on request', async () => {
    let updated!: (u: api.ResourceUpdate) => void;
    mocked.onResourceUpdated.mockImplementation((cb) => {
      updated = cb;
      return () => {};
    });
    const stop = resources.start();
    mocked.readResource.mockResolvedValueOnce(readOf('demo://note', item({ text: 'old' })));
    const { user } = await show({ canSubscribe: true });
    await user.click(screen.getByRole('button', { name: /Last note/ }));
    await screen.findByText('old');
    const watch = screen.getByRole('switch', { name: 'Watch for changes' }) as HTMLInputElement;
    await user.click(watch);
    await waitFor(() => expect(watch.checked).toBe(true));
    expect(mocked.subscribeResource).toHaveBeenCalledWith('s1', 'demo://note');
    updated({ serverId: 's1', uri: 'demo://note' });
    expect((await screen.findByText(/^Changed at/)).textContent).toMatch(/^Changed at .+\.$/);
    expect(screen.getByText('old')).toBeTruthy(); // not replaced under the reader
    mocked.readResource.mockResolvedValueOnce(readOf('demo://note', item({ text: 'new' })));
    await user.click(screen.getByRole('button', { name: 'Show the new version' }));
    await screen.findByText('new');
    expect(screen.queryByText(/^Changed at/)).toBeNull();
    await user.click(watch);
    await waitFor(() => expect(mocked.unsubscribeResource).toHaveBeenCalledWith('s1', 'demo://note'));
    stop();
  });

  it('lists the resources again when the server says they changed', async () => {
    let changed!: (id: string) => void;
    mocked.onResourcesChanged.mockImplementation((cb) => {
      changed = cb;
      return () => {};
    });
    const stop = resources.start();
    await show();
    mocked.listResources.mockResolvedValue(listView({ resources: [{ ...listView().resources[0], title: 'Renamed note' }] }));
    changed('s1');
    expect(await screen.findByRole('button', { name: /Renamed note/ })).toBeTruthy();
    stop();
  });
});

describe('the Tools pane tabs', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    resources.reset();
    tools.reset();
    servers.set([server('s1', 'Demo', { capabilities: ['tools', 'resources', 'prompts'] })]);
  });

  it('switch with the arrow keys and keep what the tab showed', async () => {
    mocked.listResources.mockResolvedValue(listView());
    mocked.readResource.mockResolvedValue(readOf('demo://note', item({ text: 'kept' })));
    const user = userEvent.setup();
    render(ToolRunner);
    await user.click(screen.getByRole('tab', { name: 'Resources' }));
    await user.click(await screen.findByRole('button', { name: /Last note/ }));
    await screen.findByText('kept');
    screen.getByRole('tab', { name: 'Resources' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Prompts', selected: true })).toBe(document.activeElement);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Tools', selected: true })).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Resources', selected: true })).toBeTruthy();
    expect(await screen.findByText('kept')).toBeTruthy();
    expect(mocked.readResource).toHaveBeenCalledTimes(1);
    expect(mocked.listResources).toHaveBeenCalledTimes(1);
  });
});
