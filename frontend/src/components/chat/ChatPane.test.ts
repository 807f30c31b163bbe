// Component tests of the Chat pane. api.ts is mocked: these tests check what
// the pane sends to Go and what it shows from the chat events and stored
// messages Go gives it. The turn itself (model, tools, approvals) is tested
// in Go (chat/, app/) against stand-in providers and real MCP peers.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ChatEvent, ChatMessage, Conversation, ProviderView } from '../../lib/api';
import { chat } from '../../lib/chat.svelte';
import ChatPane from './ChatPane.svelte';
import { nav } from '../../lib/navigate.svelte';
import { jsonNode, providerList } from '../../test/fixtures';

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

function conversation(id: string, title: string): Conversation {
  return { id, title, providerId: 'p1', createdAt: '2026-11-22T10:00:00Z', updatedAt: '2026-11-22T10:00:00Z' };
}

function message(seq: number, over: Partial<ChatMessage>): ChatMessage {
  return { conversationId: 'c1', seq, role: 'assistant', createdAt: '2026-11-22T10:00:00Z', ...over };
}

/** Starts the store as the window does and returns a function that sends chat events. */
async function startPane(): Promise<(ev: Omit<ChatEvent, 'conversationId'>) => void> {
  let emit: (ev: ChatEvent) => void = () => {};
  mocked.onChat.mockImplementation((cb) => {
    emit = cb;
    return () => {};
  });
  const stop = chat.start();
  render(ChatPane);
  await waitFor(() => expect(chat.providersLoaded).toBe(true));
  stopAfter.push(stop);
  return (ev) => emit({ conversationId: 'c1', ...ev });
}
const stopAfter: (() => void)[] = [];

/** Types a message into a new conversation and sends it with Enter. */
async function sendFirst(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.type(screen.getByRole('textbox', { name: 'Message' }), `${text}{Enter}`);
  await waitFor(() => expect(mocked.sendMessage).toHaveBeenCalled());
}

beforeEach(() => {
  vi.clearAllMocks();
  stopAfter.splice(0).forEach((f) => f());
  Object.assign(chat, {
    conversations: [],
    query: '',
    selected: '',
    messages: [],
    live: {},
    failures: {},
    providers: [],
    providersLoaded: false,
    error: '',
    errorCause: null,
    more: false,
    origin: 0,
  });
  chat.ended.clear();
  mocked.listProviders.mockResolvedValue(providerList([provider]));
  mocked.listConversations.mockResolvedValue([]);
  mocked.newConversation.mockResolvedValue(conversation('c1', ''));
  mocked.conversationMessages.mockResolvedValue({ messages: [], more: false });
});

describe('ChatPane', () => {
  it('a failure that sends the person to Settings → Models says it with a link that goes there', async () => {
    nav.reset();
    nav.pane = 'chat';
    mocked.newConversation.mockRejectedValue(new api.GoError({ key: 'chat.error.noProvider', args: {}, text: '' }, ''));
    const user = userEvent.setup();
    await startPane();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Add a model provider first in Settings → Models.');
    await user.click(within(alert).getByRole('button', { name: 'Settings → Models' }));
    expect([nav.pane, nav.section]).toEqual(['settings', 'models']);
  });

  it('Enter starts a conversation on the chosen provider and sends the message; Shift+Enter is a new line', async () => {
    const user = userEvent.setup();
    await startPane();
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect((screen.getByRole('combobox', { name: 'Model provider' }) as HTMLSelectElement).value).toBe('p1');

    await user.type(box, 'Hello{Shift>}{Enter}{/Shift}there{Enter}');

    await waitFor(() => expect(mocked.sendMessage).toHaveBeenCalledWith('c1', 'Hello\nthere'));
    expect(mocked.newConversation).toHaveBeenCalledWith('p1', '', '', []);
    expect((box as HTMLTextAreaElement).value).toBe('');
    // The person's message shows while the model answers; Stop is offered.
    expect(screen.getByLabelText('You').textContent).toContain('Hello\nthere');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(mocked.stopTurn).toHaveBeenCalledWith('c1');
  });

  it('streamed text shows as Markdown while it arrives, and the stored messages replace it when the turn is done', async () => {
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Say hi');

    emit({ kind: 'reasoning', text: 'The person greets me.' });
    emit({ kind: 'text', text: '你好，' });
    emit({ kind: 'text', text: 'this is **bold**' });
    await waitFor(() => expect(screen.getByText('bold').tagName).toBe('STRONG'));
    expect(screen.getByLabelText('Model').textContent).toContain('你好，this is');
    expect(screen.getByText('Reasoning').closest('details')).toBeTruthy();

    mocked.conversationMessages.mockResolvedValue({ messages: [
      message(1, { role: 'user', text: 'Say hi' }),
      message(2, { text: '你好，this is **bold**', usage: { input: 123, output: 45 } }),
    ], more: false });
    emit({ kind: 'done' });
    await waitFor(() => expect(screen.getByText('123 in · 45 out tokens')).toBeTruthy());
    expect(mocked.conversationMessages).toHaveBeenCalledWith('c1', { limit: 60 });
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.queryByText('The model is answering…')).toBeNull();
  });

  it('an event of a turn that arrives after its end does not bring the turn back', async () => {
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Say hi');
    mocked.conversationMessages.mockResolvedValue({ messages: [
      message(1, { role: 'user', text: 'Say hi' }),
      message(2, { text: 'Hello there' }),
    ], more: false });
    emit({ kind: 'done' });
    emit({ kind: 'text', text: 'Hello there' }); // late, as Wails' dev server may deliver it
    await waitFor(() => expect(screen.getByText('Hello there')).toBeTruthy());
    expect(screen.queryByText('The model is answering…')).toBeNull();
    expect(screen.getAllByText('Hello there')).toHaveLength(1);

    // The next turn streams as usual.
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Again{Enter}');
    emit({ kind: 'text', text: 'Once more' });
    await waitFor(() => expect(screen.getByText('Once more')).toBeTruthy());
    expect(screen.getByText('The model is answering…')).toBeTruthy();
  });

  it('when the turn is done, the streamed answer stays on screen until the stored one replaces it', async () => {
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Say hi');
    emit({ kind: 'text', text: '你好，this is the answer' });
    await waitFor(() => expect(screen.getByLabelText('Model').textContent).toContain('你好，this is the answer'));

    let answerRead: (p: { messages: ChatMessage[]; more: boolean }) => void = () => {};
    mocked.conversationMessages.mockImplementation(() => new Promise((r) => (answerRead = r)));
    emit({ kind: 'done' });
    await waitFor(() => expect(mocked.conversationMessages).toHaveBeenCalledWith('c1', expect.anything()));
    // Still being read: the answer has not left the screen.
    expect(screen.getByLabelText('Model').textContent).toContain('你好，this is the answer');

    answerRead({
      messages: [message(1, { role: 'user', text: 'Say hi' }), message(2, { text: '你好，this is the answer', usage: { input: 12, output: 5 } })],
      more: false,
    });
    await waitFor(() => expect(screen.getByText('12 in · 5 out tokens')).toBeTruthy());
    expect(screen.getAllByLabelText('Model')).toHaveLength(1);
    expect(screen.queryByText('The model is answering…')).toBeNull();
  });

  it('a tool call shows as a card with its server, tool, arguments and state, updated as the state changes', async () => {
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Weather?');
    const call = {
      id: 'call-1',
      serverId: 's1',
      serverName: 'Weather desk',
      tool: 'forecast',
      arguments: { city: 'Zürich', days: 3 },
      view: jsonNode({ city: 'Zürich', days: 3 }),
      state: 'asking',
      result: '',
      note: { key: '', args: {}, text: '' },
    };

    emit({ kind: 'call', call });
    const card = await screen.findByRole('region', { name: 'Tool call forecast' });
    expect(card.textContent).toContain('Weather desk');
    expect(card.textContent).toContain('waiting for your approval');
    expect(card.textContent).toContain('city');
    expect(card.textContent).toContain('Zürich');

    emit({ kind: 'call', call: { ...call, state: 'done', result: 'Sunny, 21 °C', note: { key: 'chat.why.conversation', args: {}, text: 'allowed in this conversation' } } });
    await waitFor(() => expect(card.textContent).toContain('done'));
    expect(screen.getAllByRole('region', { name: 'Tool call forecast' })).toHaveLength(1);
    expect(card.textContent).toContain('allowed in this conversation');
    expect(within(card).getByText('Result').closest('details')?.textContent).toContain('Sunny, 21 °C');
  });

  it('a stored denied call shows as denied, and a failed turn says why with a hint when the context is too long', async () => {
    mocked.listConversations.mockResolvedValue([conversation('c1', 'Files')]);
    mocked.conversationMessages.mockResolvedValue({ messages: [
      message(1, { role: 'user', text: 'Delete my files' }),
      message(2, { toolCalls: [{ id: 't1', serverId: 's9', tool: 'delete_all', arguments: { path: '/' }, view: jsonNode({ path: '/' }) }] }),
      message(3, { role: 'tool', toolCallId: 't1', toolResult: { content: 'The person denied this call.', isError: true, denied: true } }),
    ], more: false });
    const user = userEvent.setup();
    const emit = await startPane();
    await user.click(await screen.findByRole('button', { name: 'Files' }));
    const card = await screen.findByRole('region', { name: 'Tool call delete_all' });
    expect(card.textContent).toContain('denied');
    expect(card.textContent).toContain('path');

    emit({ kind: 'failed', error: 'The request is longer than the model’s context.', contextTooLong: true });
    expect(await screen.findByText('The request is longer than the model’s context.')).toBeTruthy();
    expect(screen.getByText(/no longer fits in the model’s context/)).toBeTruthy();
  });

  it('a turn Gatehouse was closed during shows what was saved, its unanswered call as interrupted, and that it did not finish', async () => {
    mocked.listConversations.mockResolvedValue([conversation('c1', 'Echo')]);
    mocked.conversationMessages.mockResolvedValue({ messages: [
      message(1, { role: 'user', text: 'Echo twice' }),
      message(2, {
        toolCalls: [
          { id: 't1', serverId: 's1', tool: 'echo', arguments: { message: 'one' } },
          { id: 't2', serverId: 's1', tool: 'add', arguments: { a: 1, b: 2 } },
        ],
      }),
      message(3, { role: 'tool', toolCallId: 't1', toolResult: { content: 'one' } }),
    ], more: false });
    const user = userEvent.setup();
    await startPane();
    await user.click(await screen.findByRole('button', { name: 'Echo' }));
    expect(await screen.findByText('Echo twice')).toBeTruthy();
    const done = await screen.findByRole('region', { name: 'Tool call echo' });
    expect(done.textContent).toContain('done');
    const open = screen.getByRole('region', { name: 'Tool call add' });
    expect(open.textContent).toContain('interrupted');
    expect(open.textContent).toContain('whether the tool ran is not known');
    expect(screen.getByRole('alert').textContent).toContain('This turn did not finish: Gatehouse closed while it ran.');
  });

  it('once Go closed an interrupted turn its call shows as interrupted, while a stopped turn’s unanswered call did not run', async () => {
    const closed = 'This turn did not finish: Gatehouse closed while it ran. What it had finished is kept above.';
    mocked.listConversations.mockResolvedValue([conversation('c1', 'Echo')]);
    mocked.conversationMessages.mockResolvedValue({ messages: [
      message(1, { role: 'user', text: 'Add first' }),
      message(2, { toolCalls: [{ id: 't1', serverId: 's1', tool: 'add', arguments: { a: 1, b: 2 } }] }),
      message(3, { error: 'Stopped.' }),
      message(4, { role: 'user', text: 'Echo now' }),
      message(5, { toolCalls: [{ id: 't2', serverId: 's1', tool: 'echo', arguments: { message: 'one' } }] }),
      message(6, {
        role: 'tool',
        toolCallId: 't2',
        toolResult: { content: 'Interrupted: Gatehouse closed before this call’s result was saved.', isError: true, interrupted: true },
      }),
      message(7, { error: closed }),
    ], more: false });
    const user = userEvent.setup();
    await startPane();
    await user.click(await screen.findByRole('button', { name: 'Echo' }));
    const stopped = await screen.findByRole('region', { name: 'Tool call add' });
    expect(stopped.textContent).toContain('not run');
    expect(stopped.textContent).not.toContain('interrupted');
    const interrupted = screen.getByRole('region', { name: 'Tool call echo' });
    expect(interrupted.textContent).toContain('interrupted');
    expect(interrupted.textContent).toContain('whether the tool ran is not known');
    expect(screen.getAllByText(closed)).toHaveLength(1);
  });

  it('with no model provider the composer is disabled and says where to add one', async () => {
    mocked.listProviders.mockResolvedValue(providerList([]));
    await startPane();
    const link = await screen.findByRole('button', { name: 'Settings → Models' });
    expect(link.closest('p')!.textContent!.trim()).toBe('Add a model provider in Settings → Models.');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    // The sentence's "Settings → Models" is a link that goes there (lib/navigate).
    nav.reset();
    nav.pane = 'chat';
    await userEvent.setup().click(link);
    expect(nav.pane).toBe('settings');
    expect(nav.section).toBe('models');
    expect(mocked.setSettingsSection).toHaveBeenCalledWith('models');
  });

  it('hostile model Markdown stays inert: no image, no link address; a web link opens only through Go after consent', async () => {
    mocked.checkChatLink.mockResolvedValue({
      id: 'L1',
      link: {
        url: 'https://example.com/page',
        scheme: 'https',
        host: 'example.com',
        asciiHost: 'example.com',
        port: '',
        domain: 'example.com',
        asciiDomain: 'example.com',
        display: 'https://example.com/page',
        before: 'https://',
        domainPart: 'example.com',
        after: '/page',
        loopback: false,
        warnings: [],
      },
    });
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Show me');
    emit({
      kind: 'text',
      text:
        '![pixel](https://evil.example/p.png) <img src=x onerror="alert(1)"> [run](javascript:alert(1)) ' +
        '<a href="https://evil.example">raw</a> [site](https://example.com/page)',
    });
    const model = await screen.findByLabelText('Model');
    await waitFor(() => expect(model.textContent).toContain('site'));
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('a[href]')).toBeNull();
    expect(document.querySelector('[onerror]')).toBeNull();
    // The javascript: link is not a button at all.
    expect(within(model).queryByRole('button', { name: /run/ })).toBeNull();

    const before = window.location.href;
    await user.click(within(model).getByRole('button', { name: /site/ }));
    expect(mocked.checkChatLink).toHaveBeenCalledWith('c1', 'https://example.com/page');
    const dialog = await screen.findByRole('dialog', { name: 'Open this address in your browser?' });
    expect(dialog.textContent).toContain("The model's answer links to it.");
    expect(mocked.openChatLink).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Open in browser' }));
    expect(mocked.openChatLink).toHaveBeenCalledWith('L1');
    expect(window.location.href).toBe(before);
  });

  it('a link Go refuses opens no dialog and says why', async () => {
    mocked.checkChatLink.mockRejectedValue('Gatehouse opens only addresses the model wrote in this conversation');
    const user = userEvent.setup();
    const emit = await startPane();
    await sendFirst(user, 'Show me');
    emit({ kind: 'text', text: '[site](https://example.com/page)' });
    const model = await screen.findByLabelText('Model');
    await user.click(await within(model).findByRole('button', { name: /site/ }));
    expect((await screen.findByRole('status')).textContent).toContain('only addresses the model wrote');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(mocked.openChatLink).not.toHaveBeenCalled();
  });

  it('deleting a conversation asks first, and Cancel deletes nothing', async () => {
    mocked.listConversations.mockResolvedValue([conversation('c1', 'Trip plans')]);
    const user = userEvent.setup();
    await startPane();
    await user.click(await screen.findByRole('button', { name: 'Actions for Trip plans' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete Trip plans' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this conversation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mocked.deleteConversation).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Actions for Trip plans' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete Trip plans' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this conversation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(mocked.deleteConversation).toHaveBeenCalledWith('c1'));
  });

  it('renames a conversation inline: Enter saves the new title', async () => {
    mocked.listConversations.mockResolvedValue([conversation('c1', 'Trip plans')]);
    const user = userEvent.setup();
    await startPane();
    await user.click(await screen.findByRole('button', { name: 'Actions for Trip plans' }));
    await user.click(screen.getByRole('menuitem', { name: 'Rename Trip plans' }));
    const input = screen.getByRole('textbox', { name: 'New title' });
    await user.clear(input);
    await user.type(input, 'Lisbon in May{Enter}');
    await waitFor(() => expect(mocked.renameConversation).toHaveBeenCalledWith('c1', 'Lisbon in May'));
  });

  it('the search box asks Go for the conversations matching it', async () => {
    const user = userEvent.setup();
    await startPane();
    await user.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'lisbon');
    await waitFor(() => expect(mocked.listConversations).toHaveBeenLastCalledWith('lisbon'));
  });
});
