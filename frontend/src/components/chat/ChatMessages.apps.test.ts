// Component tests of a conversation's apps (MCP Apps) in its transcript.
// api.ts is mocked (Go's AppsService is tested in Go, the real window and
// the official example servers in e2e/apps.test.mjs): these tests check that
// a call's card keeps its app when its turn ends and is stored, and that a
// stored call's app is opened for its conversation.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/svelte';
import * as api from '../../lib/api';
import type { ChatCall, ChatMessage } from '../../lib/api';
import type { LiveTurn } from '../../lib/chat.svelte';
import ChatMessages from './ChatMessages.svelte';
import { appView } from '../../test/apps-fixtures';
import { server } from '../../test/fixtures';
import { servers } from '../../lib/servers.svelte';

vi.mock('../../lib/api', async (orig) => {
  const base = await (await import('../../test/mock-api')).mockApi(orig as never);
  return { ...base, openApp: vi.fn(), closeApp: vi.fn(async () => {}) };
});
const mocked = vi.mocked(api);

const person: ChatMessage = { conversationId: 'c1', seq: 1, role: 'user', text: 'Show my budget', createdAt: '2026-11-27T10:00:00Z' };

function liveCall(over: Partial<ChatCall> = {}): ChatCall {
  return { id: 'call-1', serverId: 's1', serverName: 'Budget', tool: 'get-budget', arguments: {}, state: 'done', result: 'ok', note: { key: '', args: {}, text: '' }, app: true, ...over };
}

/** The turn as it is stored once it ended: the call, its result, the answer. */
function storedTurn(): ChatMessage[] {
  return [
    person,
    { conversationId: 'c1', seq: 2, role: 'assistant', toolCalls: [{ id: 'call-1', serverId: 's1', tool: 'get-budget', app: true }], createdAt: '' },
    { conversationId: 'c1', seq: 3, role: 'tool', toolCallId: 'call-1', toolResult: { content: 'ok' }, createdAt: '' },
    { conversationId: 'c1', seq: 4, role: 'assistant', text: 'Here it is.', createdAt: '' },
  ];
}

function frame(): HTMLIFrameElement {
  const f = document.querySelector('iframe');
  if (!f) throw new Error('no frame');
  return f;
}

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  mocked.openApp.mockReset();
  mocked.openApp.mockResolvedValue(appView());
  mocked.closeApp.mockClear();
  servers.set([server('s1', 'Budget')]);
});

describe('the apps of a conversation', () => {
  it('a call’s app keeps running (the same frame, opened once) when its turn ends and is stored', async () => {
    const live: LiveTurn = { userText: '', rounds: [{ text: '', reasoning: '', calls: [liveCall()] }, { text: 'Here it', reasoning: '', calls: [] }], usage: null };
    const r = render(ChatMessages, { messages: [person], live, conversationId: 'c1', onlink: () => {} });
    await waitFor(() => expect(frame().getAttribute('src')).toBe(appView().url));
    const first = frame();
    await r.rerender({ messages: storedTurn(), live: undefined, conversationId: 'c1', onlink: () => {} });
    expect(document.body.textContent).toContain('Here it is.');
    expect(frame()).toBe(first);
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(mocked.openApp).toHaveBeenCalledTimes(1);
    expect(mocked.closeApp).not.toHaveBeenCalled();
  });

  it('a model that gives a later call the ID of an earlier one: each call keeps its own card', async () => {
    const earlier = storedTurn();
    const live: LiveTurn = { userText: 'Again', rounds: [{ text: '', reasoning: '', calls: [liveCall({ result: 'again' })] }], usage: null };
    render(ChatMessages, { messages: earlier, live, conversationId: 'c1', onlink: () => {} });
    await waitFor(() => expect(document.querySelectorAll('iframe')).toHaveLength(2));
    expect(document.querySelectorAll('section.call')).toHaveLength(2);
  });

  it('a stored call of a tool with an app (a conversation read after a restart) opens its app for that conversation', async () => {
    render(ChatMessages, { messages: storedTurn(), conversationId: 'c1', onlink: () => {} });
    await waitFor(() => expect(frame().getAttribute('src')).toBe(appView().url));
    expect(mocked.openApp).toHaveBeenCalledWith('s1', 'get-budget', 'call-1', 'c1');
  });

  it('while its server connects (just after a start) the card says the app comes, and opens it once the server is connected; a reconnect keeps it', async () => {
    servers.set([server('s1', 'Budget', { state: 'connecting' })]);
    render(ChatMessages, { messages: storedTurn(), conversationId: 'c1', onlink: () => {} });
    expect(document.body.textContent).toContain('The app shows once Budget is connected.');
    expect(mocked.openApp).not.toHaveBeenCalled();
    servers.set([server('s1', 'Budget')]);
    await waitFor(() => expect(frame().getAttribute('src')).toBe(appView().url));
    expect(document.body.textContent).not.toContain('The app shows once');
    const first = frame();
    servers.set([server('s1', 'Budget', { state: 'connecting' })]);
    await new Promise((r) => setTimeout(r, 50));
    expect(frame()).toBe(first);
  });
});
