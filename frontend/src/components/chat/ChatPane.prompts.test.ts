// Component tests of the chat's / menu of prompts and its attachments
// (issue 14). api.ts is mocked: these tests check what the composer sends to
// Go and what it shows from the prompts, resources and suggestions Go gives
// it. Reading the resources and what the model receives are tested in Go
// (chat/attachments_test.go, app/chat_attachments_test.go) and end to end
// (e2e/chatprompts.test.mjs).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { Conversation, PromptView, ProviderView } from '../../lib/api';
import { chat } from '../../lib/chat.svelte';
import { servers } from '../../lib/servers.svelte';
import { providerList, server } from '../../test/fixtures';
import ChatPane from './ChatPane.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const provider: ProviderView = {
  id: 'p1',
  name: 'Local Ollama',
  kind: 'openai',
  preset: 'ollama',
  baseUrl: 'http://127.0.0.1:11434/v1',
  model: 'qwen3',
  keyHint: '',
  isDefault: true,
  quirks: {},
};
const conversation: Conversation = { id: 'c1', title: '', providerId: 'p1', createdAt: '2026-11-22T10:00:00Z', updatedAt: '2026-11-22T10:00:00Z' };

const hostile = '<img src=x onerror="alert(1)">';
const weekend: PromptView = {
  name: 'weekend_plan',
  title: 'Plan a weekend',
  description: 'Plans a weekend in a city',
  arguments: [
    { name: 'city', title: 'City', description: 'Where to go', required: true },
    { name: 'pace', title: 'Pace', description: '', required: false },
  ],
};
const review: PromptView = { name: 'review', title: `Review ${hostile}`, description: '', arguments: [] };

async function startPane() {
  const stop = chat.start();
  render(ChatPane);
  await waitFor(() => expect(chat.providersLoaded).toBe(true));
  stopAfter.push(stop);
  return screen.getByRole('textbox', { name: 'Message' });
}
const stopAfter: (() => void)[] = [];

/** Holds the next answer of a mocked call until release is called. */
function heldAnswer<A extends unknown[], R>(fn: { getMockImplementation(): ((...args: A) => R) | undefined; mockImplementationOnce(f: (...args: A) => R): unknown }) {
  const answer = fn.getMockImplementation();
  if (!answer) throw new Error('the mock has no answer to hold');
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  fn.mockImplementationOnce(((...args: A) => gate.then(() => answer(...args))) as (...args: A) => R);
  return { release };
}

function expectText(el: Element, text: string) {
  expect(el.textContent).toContain(text);
}

function expectValue(el: Element, value: string) {
  expect((el as HTMLTextAreaElement | HTMLInputElement).value).toBe(value);
}

beforeEach(() => {
  vi.clearAllMocks();
  stopAfter.splice(0).forEach((f) => f());
  Object.assign(chat, { conversations: [], selected: '', messages: [], live: {}, failures: {}, providers: [], providersLoaded: false, error: '', errorCause: null, more: false, origin: 0 });
  chat.ended.clear();
  servers.list = [
    server('s1', 'Demo', { capabilities: ['prompts', 'resources', 'completions'] }),
    server('s2', 'Tools only', { capabilities: ['tools'] }),
    server('s3', 'Asleep', { state: 'error', capabilities: ['prompts'] }),
  ];
  mocked.listProviders.mockResolvedValue(providerList([provider]));
  mocked.newConversation.mockResolvedValue(conversation);
  mocked.listPrompts.mockResolvedValue([weekend, review]);
  mocked.completePrompt.mockImplementation(async (_s, _p, arg, value) => {
    const all = arg === 'city' ? ['Oslo', 'Paris', 'Beijing'] : ['relaxed', 'busy'];
    const values = all.filter((v) => v.toLowerCase().startsWith(value.toLowerCase()));
    return { values, hasMore: false, total: values.length, offered: true };
  });
  mocked.getPrompt.mockResolvedValue({
    description: 'A weekend',
    messages: [
      { role: 'user', content: { type: 'text', text: 'Plan a relaxed weekend in Oslo.', mimeType: '', data: '', uri: '', name: '', title: '' } },
      {
        role: 'user',
        content: { type: 'resource', text: '{"t":3}', mimeType: 'application/json', data: '', uri: 'demo://forecast/Oslo', name: '', title: '' },
      },
    ],
  });
});

describe('the / menu', () => {
  it('lists the prompts of connected servers that offer them, filters as the person types, and Escape closes it', async () => {
    const user = userEvent.setup();
    const box = await startPane();
    await user.type(box, '/');
    const list = await screen.findByRole('listbox');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    expect(mocked.listPrompts).toHaveBeenCalledTimes(1);
    expect(mocked.listPrompts).toHaveBeenCalledWith('s1'); // not the server without prompts, not the one not connected
    expectText(within(list).getAllByRole('option')[0], 'Plan a weekend');
    expectText(within(list).getAllByRole('option')[0], 'Demo');

    await user.type(box, 'week');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(1));
    await user.type(box, 'zzz');
    expect(await screen.findByText('Nothing matches.')).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expectValue(box, '/weekzzz');
  });

  it('arrows move the active option (aria-activedescendant), Enter chooses it', async () => {
    const user = userEvent.setup();
    const box = await startPane();
    await user.type(box, '/');
    const list = await screen.findByRole('listbox');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    const [first, second] = within(list).getAllByRole('option');
    expect((box).getAttribute('aria-activedescendant')).toBe(first.id);
    expect((first).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect((box).getAttribute('aria-activedescendant')).toBe(second.id);
    await user.keyboard('{ArrowDown}');
    expect((box).getAttribute('aria-activedescendant')).toBe(first.id); // wraps
    await user.keyboard('{ArrowUp}{Enter}');
    // review has no arguments: it is got at once, and nothing is sent.
    await waitFor(() => expect(mocked.getPrompt).toHaveBeenCalledWith('s1', 'review', {}));
    expect(mocked.sendMessage).not.toHaveBeenCalled();
    expect(mocked.sendWithAttachments).not.toHaveBeenCalled();
  });

  it('fills a required argument from the server’s suggestions, inserts the prompt as an editable message with its resource, and sends only when the person does', async () => {
    const user = userEvent.setup();
    const box = await startPane();
    await user.type(box, '/plan');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Prompt: Plan a weekend' });
    expect(within(dialog).getByText('required')).toBeTruthy();
    const insert = within(dialog).getByRole('button', { name: 'Insert' });
    expect((insert as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByText('To insert, fill in: City.')).toBeTruthy();

    await user.click(within(dialog).getByRole('textbox', { name: /City/ }));
    await user.keyboard('o');
    const suggestions = await within(dialog).findByRole('group', { name: 'Suggestions for City' });
    await waitFor(() => expect(within(suggestions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Oslo']));
    await user.click(within(suggestions).getByRole('button', { name: 'Oslo' }));
    expectValue(within(dialog).getByRole('textbox', { name: /City/ }), 'Oslo');
    await user.click(insert);

    await waitFor(() => expect(mocked.getPrompt).toHaveBeenCalledWith('s1', 'weekend_plan', { city: 'Oslo' }));
    await waitFor(() => expectValue(box, 'Plan a relaxed weekend in Oslo.'));
    const chips = screen.getByRole('list', { name: 'Attached resources' });
    expectText(chips, 'Demo');
    expectText(chips, 'demo://forecast/Oslo');
    expectText(chips, '7 bytes');
    expect(mocked.sendWithAttachments).not.toHaveBeenCalled();

    await user.type(box, ' Two days.{Enter}');
    await waitFor(() =>
      expect(mocked.sendWithAttachments).toHaveBeenCalledWith('c1', 'Plan a relaxed weekend in Oslo. Two days.', [
        { serverId: 's1', uri: 'demo://forecast/Oslo', name: 'demo://forecast/Oslo', mimeType: 'application/json', text: '{"t":3}' },
      ]),
    );
  });

  it('a server that connects while the / menu is open adds its prompts to it', async () => {
    const user = userEvent.setup();
    servers.list = [server('s1', 'Demo', { state: 'connecting', capabilities: [] })];
    const box = await startPane();
    await user.type(box, '/');
    await waitFor(() => expectText(screen.getByRole('status'), 'No connected server offers prompts'));
    const answer = heldAnswer(mocked.listPrompts);
    servers.list = [server('s1', 'Demo', { capabilities: ['prompts', 'resources', 'completions'] })];
    // While the server's prompts are being read, the menu says so rather than "none".
    await waitFor(() => expectText(screen.getByRole('status'), 'Loading…'));
    answer.release();
    const list = await screen.findByRole('listbox');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    expectText(within(list).getAllByRole('option')[0], 'Plan a weekend');
    expect(mocked.listPrompts).toHaveBeenCalledTimes(1);
  });

  it('shows server text as text, never as HTML', async () => {
    const user = userEvent.setup();
    const box = await startPane();
    await user.type(box, '/rev');
    const list = await screen.findByRole('listbox');
    await waitFor(() => expectText(within(list).getByRole('option'), `Review ${hostile}`));
    expect(list.querySelector('img')).toBeNull();
  });
});

describe('attachments', () => {
  beforeEach(() => {
    mocked.listResources.mockResolvedValue({
      resources: [
        { uri: 'demo://notes', name: 'notes', title: hostile, description: '', mimeType: 'text/plain', size: 2048 },
        { uri: 'demo://logo.png', name: 'logo', title: 'Logo', description: '', mimeType: 'image/png', size: 0 },
      ],
      templates: [{ uriTemplate: 'demo://forecast/{city}', name: 'forecast', title: 'Forecast', description: '', mimeType: 'application/json', variables: ['city'] }],
      more: false,
      canSubscribe: false,
      canComplete: true,
      subscribed: [],
    });
  });

  it('Attach picks resources; they show as chips (server, name, size) that can be removed, and go with the message', async () => {
    const user = userEvent.setup();
    const box = await startPane();
    await user.click(screen.getByRole('button', { name: 'Attach' }));
    let dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.type(within(dialog).getByRole('searchbox', { name: 'Filter' }), 'img');
    await waitFor(() => expect(within(dialog).getAllByRole('button', { name: /img/ })).toHaveLength(1));
    expect(dialog.querySelector('img')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: /img/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Attach' }));
    dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.click(await within(dialog).findByRole('button', { name: /Logo/ }));

    const chips = await screen.findByRole('list', { name: 'Attached resources' });
    const items = within(chips).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expectText(items[0], `Demo ${hostile} 2 KB`);
    expect(chips.querySelector('img')).toBeNull();
    await user.click(within(items[1]).getByRole('button', { name: 'Remove Logo' }));
    expect(within(chips).getAllByRole('listitem')).toHaveLength(1);

    // A message of attachments alone can be sent.
    box.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(mocked.sendWithAttachments).toHaveBeenCalledWith('c1', '', [
        { serverId: 's1', uri: 'demo://notes', name: hostile, mimeType: 'text/plain' },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attached resources' })).toBeTruthy()); // on the sent message
  });

  it('a server that connects while the picker is open shows its resources then', async () => {
    const user = userEvent.setup();
    servers.list = [server('s1', 'Demo', { state: 'connecting', capabilities: [] })];
    await startPane();
    await user.click(screen.getByRole('button', { name: 'Attach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await waitFor(() => expectText(within(dialog).getByRole('status'), 'No connected server offers resources'));
    expect(mocked.listResources).not.toHaveBeenCalled();
    const answer = heldAnswer(mocked.listResources);
    servers.list = [server('s1', 'Demo', { capabilities: ['prompts', 'resources', 'completions'] })];
    await waitFor(() => expectText(within(dialog).getByRole('status'), 'Loading…'));
    answer.release();
    await user.click(await within(dialog).findByRole('button', { name: /Logo/ }));
    expectText(await screen.findByRole('list', { name: 'Attached resources' }), 'Logo');
    expect(mocked.listResources).toHaveBeenCalledTimes(1);
  });

  it('a template is filled with the server’s suggestions and attached as the URI it makes', async () => {
    const user = userEvent.setup();
    mocked.completeTemplate.mockResolvedValue({ values: ['Oslo', 'Osaka'], hasMore: false, total: 2, offered: true });
    mocked.expandTemplate.mockResolvedValue('demo://forecast/Oslo');
    await startPane();
    await user.click(screen.getByRole('button', { name: 'Attach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.click(await within(dialog).findByRole('button', { name: /Forecast/ }));
    await user.click(await within(dialog).findByRole('textbox', { name: 'city' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Oslo' }));
    await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
    await waitFor(() => expect(mocked.expandTemplate).toHaveBeenCalledWith('demo://forecast/{city}', { city: 'Oslo' }));
    expect(mocked.completeTemplate).toHaveBeenCalledWith('s1', 'demo://forecast/{city}', 'city', '', {});
    expectText(await screen.findByRole('list', { name: 'Attached resources' }), 'demo://forecast/Oslo');
  });

  it('a sent message shows its stored attachments again', async () => {
    mocked.listConversations.mockResolvedValue([{ ...conversation, title: 'Earlier' }]);
    mocked.conversationMessages.mockResolvedValue({ messages: [
      {
        conversationId: 'c1',
        seq: 1,
        role: 'user',
        text: 'Look at this',
        createdAt: '2026-11-22T10:00:00Z',
        attachments: [{ serverId: 's1', serverName: 'Demo', uri: 'demo://notes', name: hostile, size: 5, text: 'hello' }],
      },
    ], more: false });
    await startPane();
    await chat.select('c1');
    const chips = await screen.findByRole('list', { name: 'Attached resources' });
    expectText(chips, `Demo ${hostile} 5 bytes`);
    expect(within(chips).queryByRole('button')).toBeNull(); // not removable once sent
  });
});
