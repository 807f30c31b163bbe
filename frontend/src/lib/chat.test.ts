// The chat store reads a long conversation by pages (issue 26, P8c): its
// newest page on opening, the page before as the person scrolls up, all of
// it for the find box, and, after a turn, again from the oldest message
// read, keeping the older pages.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import type { ChatMessage } from './api';
import { chat, FIRST_PAGE, OLDER_PAGE } from './chat.svelte';
import { transcriptBlocks } from './transcript';

vi.mock('./api', async (orig) => (await import('../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

/** Messages first..last of a conversation: a question and an answer with a tool call (whose ID the model uses again), and its result. */
function stored(first: number, last: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let seq = first; seq <= last; seq++) {
    const kind = (seq - 1) % 3;
    out.push(
      kind === 0
        ? { conversationId: 'c1', seq, role: 'user', text: `Question ${seq}`, createdAt: '' }
        : kind === 1
          ? { conversationId: 'c1', seq, role: 'assistant', toolCalls: [{ id: 'call_0', serverId: 's1', tool: 't' }], createdAt: '' }
          : { conversationId: 'c1', seq, role: 'tool', toolCallId: 'call_0', toolResult: { content: 'ok' }, createdAt: '' },
    );
  }
  return out;
}

/** Go's MessagePage over a conversation of n messages (without the stretch to a turn's start). */
function goPages(n: number) {
  const all = stored(1, n);
  mocked.conversationMessages.mockImplementation(async (_id, p = {}) => {
    const within = all.filter((m) => m.seq >= (p.from ?? 0) && (!p.before || m.seq < p.before));
    const page = p.limit ? within.slice(-p.limit) : within;
    return { messages: page, more: page.length > 0 && page[0].seq > 1 };
  });
  return all;
}

describe('a long conversation in the chat store', () => {
  beforeEach(async () => {
    mocked.conversationMessages.mockReset();
    await chat.select('');
  });

  it('opens on its newest page and reads the older ones page by page, then all of them', async () => {
    const all = goPages(1200);
    await chat.select('c1');
    expect(mocked.conversationMessages).toHaveBeenLastCalledWith('c1', { limit: FIRST_PAGE });
    expect(chat.messages.map((m) => m.seq)).toEqual(all.slice(-FIRST_PAGE).map((m) => m.seq));
    expect(chat.more).toBe(true);
    expect(chat.origin).toBe(1200 - FIRST_PAGE + 1);

    await chat.loadOlder();
    expect(mocked.conversationMessages).toHaveBeenLastCalledWith('c1', { before: chat.origin, limit: OLDER_PAGE });
    expect(chat.messages).toHaveLength(FIRST_PAGE + OLDER_PAGE);
    // Two calls at once read the page once.
    await Promise.all([chat.loadOlder(), chat.loadOlder()]);
    expect(chat.messages).toHaveLength(FIRST_PAGE + 2 * OLDER_PAGE);

    await chat.loadOlder(true);
    expect(chat.messages.map((m) => m.seq)).toEqual(all.map((m) => m.seq));
    expect(chat.more).toBe(false);
    const calls = mocked.conversationMessages.mock.calls.length;
    await chat.loadOlder();
    expect(mocked.conversationMessages).toHaveBeenCalledTimes(calls); // nothing older to read
  });

  it('after a turn, reads again from the oldest message read on, keeping the older pages', async () => {
    goPages(300);
    await chat.select('c1');
    await chat.loadOlder();
    const oldest = chat.messages[0].seq;
    const before = chat.messages.length;
    goPages(303); // the turn stored three messages
    await chat.loadMessages();
    expect(mocked.conversationMessages).toHaveBeenLastCalledWith('c1', { from: oldest });
    expect(chat.messages).toHaveLength(before + 3);
    expect(chat.messages[0].seq).toBe(oldest);
    expect(chat.messages.at(-1)?.seq).toBe(303);
  });

  it('the older pages change no key of the rows read first, though the model used its call IDs again', async () => {
    const all = goPages(600);
    await chat.select('c1');
    const first = transcriptBlocks(chat.messages, undefined, (id) => id, chat.origin).map((b) => b.key);
    await chat.loadOlder(true);
    const keys = transcriptBlocks(chat.messages, undefined, (id) => id, chat.origin).map((b) => b.key);
    expect(keys.slice(-first.length)).toEqual(first);
    expect(new Set(keys).size).toBe(keys.length);
    expect(chat.messages).toHaveLength(all.length);
  });
});
