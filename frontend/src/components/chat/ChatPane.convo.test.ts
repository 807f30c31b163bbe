// Component tests of a conversation's settings, export and the way on when
// it outgrows the model's context, in the Chat pane. api.ts is mocked: these
// tests check what the pane sends to Go and shows from Go's answers. The Go
// side (UpdateConversation, DropOldToolResults, Retry, Export) is tested in
// app/ against stand-in providers, and end to end in e2e/chat-settings.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ChatEvent, ChatMessage, Conversation, ProviderView } from '../../lib/api';
import { chat } from '../../lib/chat.svelte';
import { servers } from '../../lib/servers.svelte';
import { providerList, server, tool } from '../../test/fixtures';
import ChatPane from './ChatPane.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const ollama: ProviderView = {
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
const deepseek: ProviderView = { ...ollama, id: 'p2', name: 'DeepSeek', preset: 'deepseek', model: 'deepseek-chat', isDefault: false };

function conversation(over: Partial<Conversation> = {}): Conversation {
  return { id: 'c1', title: 'Trip plans', providerId: 'p1', createdAt: '2026-11-22T10:00:00Z', updatedAt: '2026-11-22T10:00:00Z', ...over };
}

function message(seq: number, over: Partial<ChatMessage>): ChatMessage {
  return { conversationId: 'c1', seq, role: 'assistant', createdAt: '2026-11-22T10:00:00Z', ...over };
}

const stopAfter: (() => void)[] = [];

/** Starts the pane with conversation c1 chosen; returns a function that sends chat events. */
async function openConversation(conv = conversation()): Promise<(ev: Omit<ChatEvent, 'conversationId'>) => void> {
  let emit: (ev: ChatEvent) => void = () => {};
  mocked.onChat.mockImplementation((cb) => {
    emit = cb;
    return () => {};
  });
  mocked.listConversations.mockResolvedValue([conv]);
  stopAfter.push(chat.start());
  render(ChatPane);
  await waitFor(() => expect(chat.providersLoaded).toBe(true));
  await userEvent.setup().click(await screen.findByRole('button', { name: conv.title }));
  await waitFor(() => expect(chat.selected).toBe(conv.id));
  return (ev) => emit({ conversationId: conv.id, ...ev });
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
  servers.set([server('s1', 'Weather desk'), server('s2', 'Files', {}, false)]);
  mocked.listProviders.mockResolvedValue(providerList([ollama, deepseek]));
  mocked.conversationMessages.mockResolvedValue({ messages: [], more: false });
  mocked.providerModels.mockResolvedValue({ models: [{ id: 'deepseek-chat', displayName: '' }, { id: 'deepseek-reasoner', displayName: '' }] });
});

describe('Conversation settings', () => {
  it('the header shows provider and model; the settings change provider, model, system prompt and servers', async () => {
    const user = userEvent.setup();
    await openConversation();
    expect(screen.getByText('Local Ollama · qwen3 (default)')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Conversation settings' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(false); // nothing changed yet: Save (or Enter) just closes
    expect((within(dialog).getByRole('radio', { name: 'All enabled servers' }) as HTMLInputElement).checked).toBe(true);

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Model provider' }), 'p2');
    // The provider's listed models are offered while typing.
    await waitFor(() => expect(mocked.providerModels).toHaveBeenLastCalledWith('p2'));
    await waitFor(() => expect(dialog.querySelectorAll('datalist option')).toHaveLength(2));
    expect(dialog.querySelector('datalist option[value="deepseek-reasoner"]')).toBeTruthy();
    await user.type(within(dialog).getByRole('combobox', { name: 'Model' }), 'deepseek-reasoner');
    await user.type(within(dialog).getByRole('textbox', { name: 'System prompt' }), '用中文回答。');
    await user.click(within(dialog).getByRole('radio', { name: 'Only the servers chosen here' }));
    expect(within(dialog).getByText('Choose at least one server, or all enabled servers.')).toBeTruthy();
    expect(within(dialog).getByRole('checkbox', { name: /Files \(disabled/ })).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Weather desk' }));

    mocked.updateConversation.mockResolvedValue(conversation({ providerId: 'p2', model: 'deepseek-reasoner', systemPrompt: '用中文回答。', servers: ['s1'] }));
    await user.click(save);
    expect(mocked.updateConversation).toHaveBeenCalledWith('c1', 'p2', 'deepseek-reasoner', '用中文回答。', ['s1']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('DeepSeek · deepseek-reasoner')).toBeTruthy();
  });

  it('tools that can only run as MCP tasks are named as not offered to the model, for the servers chosen', async () => {
    mocked.listTools.mockImplementation(async (id: string) =>
      id === 's1' ? [tool('forecast'), tool('simulate-research-query', { needsTask: true })] : [],
    );
    const user = userEvent.setup();
    await openConversation();
    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Conversation settings' });
    expect(
      await within(dialog).findByText(
        'Not offered to the model, because they can only run as MCP tasks, which Gatehouse does not support yet: simulate-research-query (Weather desk).',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/forecast/)).toBeNull();
    expect(mocked.listTools).not.toHaveBeenCalledWith('s2'); // turned off: nothing to offer anyway
  });

  it('a model the endpoint does not list can still be typed, and a refusal from Go stays in the dialog', async () => {
    mocked.providerModels.mockResolvedValue({ models: [], problem: { key: 'x', text: 'Nothing answers at 127.0.0.1:11434 — is Ollama running?' } as never });
    const user = userEvent.setup();
    await openConversation();
    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Conversation settings' });
    expect(await within(dialog).findByText(/did not list its models: Nothing answers/)).toBeTruthy();

    await user.type(within(dialog).getByRole('combobox', { name: 'Model' }), 'my-own-model');
    mocked.updateConversation.mockRejectedValue(new Error('the model is still answering in this conversation; wait, or press Stop'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('still answering');
    expect(mocked.updateConversation).toHaveBeenCalledWith('c1', 'p1', 'my-own-model', '', []);
  });

  it('closing with unsaved changes asks first; Keep editing keeps them, Discard saves nothing', async () => {
    const user = userEvent.setup();
    await openConversation();
    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    let dialog = screen.getByRole('dialog', { name: 'Conversation settings' });
    await user.type(within(dialog).getByRole('textbox', { name: 'System prompt' }), 'Be brief.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByText('Discard your changes?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect((within(dialog).getByRole('textbox', { name: 'System prompt' }) as HTMLTextAreaElement).value).toBe('Be brief.');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mocked.updateConversation).not.toHaveBeenCalled();

    // Without changes, Cancel just closes.
    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    dialog = screen.getByRole('dialog', { name: 'Conversation settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('while the model answers the settings cannot be opened, and say why', async () => {
    const user = userEvent.setup();
    const emit = await openConversation();
    emit({ kind: 'text', text: '正在回答' });
    await waitFor(() => expect((screen.getByRole('button', { name: 'Conversation settings' }) as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getByText('Settings can change once the model has answered.')).toBeTruthy();
    emit({ kind: 'done' });
    await waitFor(() => expect((screen.getByRole('button', { name: 'Conversation settings' }) as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Conversation settings' }));
    expect(screen.getByRole('dialog', { name: 'Conversation settings' })).toBeTruthy();
  });
});

describe('Export', () => {
  it('Export… asks Go to save the conversation and says where it went', async () => {
    mocked.exportConversation.mockResolvedValue('/home/me/Trip plans.md');
    const user = userEvent.setup();
    await openConversation();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    expect(mocked.exportConversation).toHaveBeenCalledWith('c1');
    expect((await screen.findByRole('status')).textContent).toContain('Saved to /home/me/Trip plans.md.');
  });

  it('a cancelled save says nothing; a failed one says why', async () => {
    const user = userEvent.setup();
    await openConversation();
    mocked.exportConversation.mockResolvedValue('');
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    expect(screen.queryByRole('status')).toBeNull();
    mocked.exportConversation.mockRejectedValue(new Error('the file could not be written: permission denied'));
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The conversation was not exported: the file could not be written');
  });
});

describe('When the conversation outgrows the context', () => {
  const stored = [
    message(1, { role: 'user', text: 'Read the big file' }),
    message(2, { toolCalls: [{ id: 't1', serverId: 's1', tool: 'read_file', arguments: { path: 'big.txt' } }] }),
    message(3, { role: 'tool', toolCallId: 't1', toolResult: { content: 'lots of text' } }),
    message(4, { text: 'It is long.' }),
    message(5, { role: 'user', text: '总结一下' }),
    message(6, { error: 'The conversation is too long for qwen3. Drop old tool results from the conversation, or continue in a new one.' }),
  ];
  const tooLong = { kind: 'failed' as const, error: stored[5].error, contextTooLong: true };

  it('Drop old tool results and retry drops them, shows them as dropped, and answers the last message again', async () => {
    mocked.conversationMessages.mockResolvedValue({ messages: stored, more: false });
    const user = userEvent.setup();
    const emit = await openConversation();
    emit(tooLong);
    const ways = await screen.findByRole('group', { name: 'Ways on' });

    mocked.conversationMessages.mockResolvedValue({ messages: stored.map((m) => (m.seq === 3 ? { ...m, dropped: true } : m)), more: false });
    await user.click(within(ways).getByRole('button', { name: 'Drop old tool results and retry' }));
    expect(mocked.dropOldToolResults).toHaveBeenCalledWith('c1');
    await waitFor(() => expect(mocked.retryTurn).toHaveBeenCalledWith('c1'));
    expect(mocked.dropOldToolResults.mock.invocationCallOrder[0]).toBeLessThan(mocked.retryTurn.mock.invocationCallOrder[0]);
    const card = await screen.findByRole('region', { name: 'Tool call read_file' });
    await waitFor(() => expect(card.textContent).toContain('Result dropped to save room'));
    expect(within(card).getByText('Result (dropped to save room)').closest('details')?.textContent).toContain('lots of text');
    // The retry runs: the way-on buttons leave, the person's message is not shown twice.
    expect(screen.queryByRole('group', { name: 'Ways on' })).toBeNull();
    expect(screen.getByText('The model is answering…')).toBeTruthy();
    expect(screen.getAllByText('总结一下')).toHaveLength(1);
    // The retried turn's answer streams in (the failed turn's end does not silence it).
    emit({ kind: 'text', text: '简短的总结。' });
    await waitFor(() => expect(screen.getByText('简短的总结。')).toBeTruthy());
  });

  it('after a restart the stored failure still offers the ways on', async () => {
    mocked.conversationMessages.mockResolvedValue({ messages: stored.map((m) => (m.seq === 6 ? { ...m, contextTooLong: true } : m)), more: false });
    await openConversation();
    expect(await screen.findByRole('group', { name: 'Ways on' })).toBeTruthy();
    expect(screen.getAllByText(/too long for qwen3/)).toHaveLength(1);
  });

  it('a stored failure of another kind offers no ways on', async () => {
    mocked.conversationMessages.mockResolvedValue({ messages: 
      stored.map((m) => (m.seq === 6 ? { ...m, error: 'The API key was refused by DeepSeek.' } : m)),
      more: false,
    });
    await openConversation();
    expect(await screen.findByText('The API key was refused by DeepSeek.')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Ways on' })).toBeNull();
  });

  it('a refused drop says why and retries nothing', async () => {
    mocked.conversationMessages.mockResolvedValue({ messages: stored, more: false });
    mocked.dropOldToolResults.mockRejectedValue(new Error('there are no earlier tool results to drop; continue in a new conversation'));
    const user = userEvent.setup();
    const emit = await openConversation();
    emit(tooLong);
    await user.click(await screen.findByRole('button', { name: 'Drop old tool results and retry' }));
    await waitFor(() => expect(screen.getByText(/no earlier tool results to drop/)).toBeTruthy());
    expect(mocked.retryTurn).not.toHaveBeenCalled();
  });

  it('Continue in a new conversation starts one with the same settings and puts the last message in the composer', async () => {
    const conv = conversation({ providerId: 'p2', model: 'deepseek-chat', systemPrompt: '简短', servers: ['s1'] });
    mocked.conversationMessages.mockResolvedValue({ messages: stored, more: false });
    mocked.newConversation.mockResolvedValue(conversation({ id: 'c2', title: '', providerId: 'p2', model: 'deepseek-chat', systemPrompt: '简短', servers: ['s1'] }));
    const user = userEvent.setup();
    const emit = await openConversation(conv);
    emit(tooLong);
    mocked.conversationMessages.mockResolvedValue({ messages: [], more: false });
    await user.click(await screen.findByRole('button', { name: 'Continue in a new conversation' }));
    expect(mocked.newConversation).toHaveBeenCalledWith('p2', 'deepseek-chat', '简短', ['s1']);
    await waitFor(() => expect(chat.selected).toBe('c2'));
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('总结一下');
    expect(mocked.sendMessage).not.toHaveBeenCalled();
    // The new conversation is empty, and says how to start it rather than showing a blank page.
    expect(await screen.findByText('Write a message to start a conversation.')).toBeTruthy();
  });

  it('the hint to write a message shows only once a conversation is read and found empty', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    mocked.conversationMessages.mockImplementation(() => held.then(() => ({ messages: [], more: false })));
    await openConversation();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Write a message to start a conversation.')).toBeNull(); // still being read
    release();
    expect(await screen.findByText('Write a message to start a conversation.')).toBeTruthy();

    mocked.conversationMessages.mockResolvedValue({ messages: stored, more: false });
    await chat.select('c1');
    await waitFor(() => expect(chat.messages).toHaveLength(stored.length));
    expect(screen.queryByText('Write a message to start a conversation.')).toBeNull();
  });

  it('with text in the composer, continuing asks before replacing it', async () => {
    mocked.conversationMessages.mockResolvedValue({ messages: stored, more: false });
    mocked.newConversation.mockResolvedValue(conversation({ id: 'c2', title: '' }));
    const user = userEvent.setup();
    const emit = await openConversation();
    emit(tooLong);
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    await user.type(box, 'half a thought');

    await user.click(await screen.findByRole('button', { name: 'Continue in a new conversation' }));
    let ask = screen.getByRole('dialog', { name: 'Replace your unsent message?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(mocked.newConversation).not.toHaveBeenCalled();
    expect(box.value).toBe('half a thought');

    await user.click(screen.getByRole('button', { name: 'Continue in a new conversation' }));
    ask = screen.getByRole('dialog', { name: 'Replace your unsent message?' });
    await user.click(within(ask).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(box.value).toBe('总结一下'));
  });
});
