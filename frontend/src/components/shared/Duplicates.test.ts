// A server may list the same tool, resource, template, prompt, argument or
// suggestion twice. Go drops the repeats (mcp/dedupe.go), but the views do
// not rely on it: each draws such a list without Svelte's each_key_duplicate
// error, which used to leave the view on the previous server's list
// (issue 22, item 10). api.ts is mocked; e2e/render.test.mjs runs the real
// thing against a hostile peer.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { PromptView, ResourceListView } from '../../lib/api';
import { prompts } from '../../lib/prompts.svelte';
import { resources } from '../../lib/resources.svelte';
import { servers } from '../../lib/servers.svelte';
import { tools } from '../../lib/tools.svelte';
import PromptsView from '../library/PromptsView.svelte';
import ResourcesView from '../library/ResourcesView.svelte';
import ToolRunner from '../tools/ToolRunner.svelte';
import { server, tool } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

beforeEach(() => {
  vi.clearAllMocks();
  tools.reset();
  resources.reset();
  prompts.reset();
});

describe('lists with a name twice', () => {
  it('the tools pane lists a tool named twice', async () => {
    servers.set([server('s1', 'Dups')]);
    mocked.listTools.mockResolvedValue([tool('echo', { title: 'Echo one' }), tool('echo', { title: 'Echo two' }), tool('other')]);
    render(ToolRunner);
    const list = await screen.findByRole('navigation', { name: 'Tools of Dups' });
    await within(list).findByRole('button', { name: /Echo one/ });
    expect(within(list).getAllByRole('button').length).toBeGreaterThanOrEqual(3);
  });

  it('the resources tab lists a resource and a template twice, and a variable named twice', async () => {
    const dup = { uri: 'dup://a', name: 'a', title: 'Listed twice', description: '', mimeType: 'text/plain', size: 0 };
    const template = { uriTemplate: 'dup://{id}/{id}', name: 'item', title: 'An item', description: '', mimeType: '', variables: ['id', 'id'] };
    const list: ResourceListView = {
      resources: [dup, { ...dup, title: 'Listed twice again' }],
      templates: [template, template],
      more: false,
      canSubscribe: false,
      canComplete: false,
      subscribed: [],
    };
    mocked.listResources.mockResolvedValue(list);
    const user = userEvent.setup();
    render(ResourcesView, { server: server('s1', 'Dups', { capabilities: ['resources'] }) });
    const nav = await screen.findByRole('navigation', { name: 'Resources of Dups' });
    expect(within(nav).getAllByRole('button', { name: /^Listed twice/ })).toHaveLength(2);
    await user.click(within(nav).getAllByRole('button', { name: /^An item/ })[0]);
    expect(screen.getAllByRole('textbox', { name: 'id' }).length).toBeGreaterThanOrEqual(1);
  });

  it('the prompts tab lists a prompt and an argument twice, and a suggestion made twice', async () => {
    const twice: PromptView = {
      name: 'twice',
      title: 'Listed twice',
      description: '',
      arguments: [
        { name: 'topic', title: 'topic', description: '', required: true },
        { name: 'topic', title: 'topic', description: 'again', required: false },
      ],
    };
    mocked.listPrompts.mockResolvedValue([twice, twice]);
    mocked.completePrompt.mockResolvedValue({ values: ['alpha', 'alpha', 'beta'], hasMore: false, total: 3, offered: true });
    const user = userEvent.setup();
    render(PromptsView, { server: server('s1', 'Dups', { capabilities: ['prompts', 'completions'] }) });
    const nav = await screen.findByRole('navigation', { name: 'Prompts of Dups' });
    await user.click(within(nav).getAllByRole('button', { name: /Listed twice/ })[0]);
    await user.type(screen.getAllByRole('textbox', { name: /topic/ })[0], 'a');
    const suggestions = await screen.findByRole('list', { name: 'Suggestions for topic' });
    expect(within(suggestions).getAllByRole('button', { name: 'alpha' }).length).toBeGreaterThanOrEqual(1);
    expect(within(suggestions).getByRole('button', { name: 'beta' })).toBeTruthy();
  });
});
