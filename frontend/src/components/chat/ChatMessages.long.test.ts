// Component tests of a long transcript (issue 26): with a scrolling box
// only the rows near the view are in the page, a running turn's rows are
// always drawn, an app's card stays drawn while it is near and is closed
// when it is far, and the find box counts matches in rows not drawn.
// jsdom has no layout: the arithmetic is tested in lib/virtual.test.ts,
// scrolling and highlighting in the window (e2e/chat-long.test.mjs).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import * as api from '../../lib/api';
import type { ChatMessage } from '../../lib/api';
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

/** n messages: questions and answers, the answer of round 3 holding a rare word. */
function conversation(n: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => ({
    conversationId: 'c1',
    seq: i + 1,
    role: i % 2 ? 'assistant' : 'user',
    text: i % 2 ? `Answer ${(i - 1) / 2}${i === 7 ? ': the word is Zanzibar' : ''}.` : `Question ${i / 2}`,
    createdAt: '',
  }));
}

function scrollBox(): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  return el;
}

const rows = () => document.querySelectorAll('.row');

beforeEach(() => {
  document.body.innerHTML = '';
  mocked.openApp.mockReset();
  mocked.openApp.mockResolvedValue(appView());
  mocked.closeApp.mockClear();
  servers.set([server('s1', 'Budget')]);
});

describe('a long transcript', () => {
  it('draws only the rows near the newest message, with the space of the others', () => {
    render(ChatMessages, { messages: conversation(1000), conversationId: 'c1', scroller: scrollBox(), onlink: () => {} });
    expect(rows().length).toBeGreaterThan(3);
    expect(rows().length).toBeLessThan(40);
    expect(document.body.textContent).toContain('Answer 499.');
    expect(document.body.textContent).not.toContain('Question 0');
    const space = document.querySelector<HTMLElement>('.row')!.style.marginTop;
    expect(parseFloat(space)).toBeGreaterThan(100 * 40);
  });

  it('without a scrolling box, draws every row', () => {
    render(ChatMessages, { messages: conversation(60), conversationId: 'c1', onlink: () => {} });
    expect(rows()).toHaveLength(60);
  });

  it('draws the running turn wherever the view is', () => {
    const live: LiveTurn = { userText: 'More', rounds: [{ text: 'Streaming text', reasoning: '', calls: [] }], usage: null };
    render(ChatMessages, { messages: conversation(1000), live, conversationId: 'c1', scroller: scrollBox(), onlink: () => {} });
    expect(document.body.textContent).toContain('Streaming text');
    expect(document.body.textContent).toContain('More');
  });

  it('an app near the view stays drawn; one far above is not drawn (its app closed, to be opened again)', async () => {
    const withApp = (at: number): ChatMessage[] => {
      const msgs = conversation(1000);
      msgs.splice(at, 0,
        { conversationId: 'c1', seq: 5000, role: 'assistant', toolCalls: [{ id: 'call-1', serverId: 's1', tool: 'get-budget', app: true }], createdAt: '' },
        { conversationId: 'c1', seq: 5001, role: 'tool', toolCallId: 'call-1', toolResult: { content: 'ok' }, createdAt: '' });
      return msgs;
    };
    const r = render(ChatMessages, { messages: withApp(990), conversationId: 'c1', scroller: scrollBox(), onlink: () => {} });
    await waitFor(() => expect(document.querySelectorAll('iframe')).toHaveLength(1));
    await r.rerender({ messages: withApp(10), conversationId: 'c1', scroller: scrollBox(), onlink: () => {} });
    await waitFor(() => expect(document.querySelectorAll('iframe')).toHaveLength(0));
    expect(mocked.closeApp).toHaveBeenCalled();
  });

  it('Ctrl+F opens the find box, which counts matches in rows not drawn; Escape closes it', async () => {
    const scroller = scrollBox();
    const column = document.createElement('section');
    column.append(scroller);
    document.body.append(column);
    Object.defineProperty(column, 'offsetParent', { get: () => document.body });
    render(ChatMessages, { messages: conversation(1000), conversationId: 'c1', scroller, onlink: () => {} }, { baseElement: scroller });
    expect(document.body.textContent).not.toContain('Zanzibar');
    await fireEvent.keyDown(window, { key: 'f', code: 'KeyF', ctrlKey: true });
    const box = await screen.findByRole('searchbox', { name: 'Find in the conversation' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    await fireEvent.input(box, { target: { value: 'zanzibar' } });
    flushSync();
    await waitFor(() => expect(document.querySelector('.find .count')?.textContent?.trim()).toBe('1 of 1'));
    // The match's row is drawn, however far from the view it is.
    await waitFor(() => expect(document.body.textContent).toContain('the word is Zanzibar'));
    await fireEvent.input(box, { target: { value: 'question' } });
    await waitFor(() => expect(document.querySelector('.find .count')?.textContent?.trim()).toBe('1 of 500'));
    await fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(document.querySelector('.find .count')?.textContent?.trim()).toBe('2 of 500'));
    await fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    await fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    await waitFor(() => expect(document.querySelector('.find .count')?.textContent?.trim()).toBe('500 of 500'));
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('searchbox')).toBeNull();
  });
});

/**
 * A scrolling box with the size and scroll position a window would give it
 * (jsdom has no layout): 600 px high, its content as high as 140 px a row
 * (the estimate of a row never measured), the rows' top where the scroll
 * position puts it.
 */
function layoutBox(): HTMLElement {
  const el = scrollBox();
  let top = 0;
  Object.defineProperty(el, 'clientHeight', { get: () => 600 });
  Object.defineProperty(el, 'scrollHeight', { get: () => rows().length * 140 + 1e6 });
  Object.defineProperty(el, 'scrollTop', { get: () => top, set: (v: number) => (top = v) });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return { top: this.classList.contains('rows') ? -top : 0, bottom: 0, height: 0, left: 0, right: 0, width: 0 } as DOMRect;
  });
  return el;
}

/**
 * A transcript of 40 messages opened at its newest in a box that scrolls as
 * a window's does (600 px high, 2000 px of content besides the rows): the
 * browser keeps the view within the content, so when the content shrinks
 * under the view (pull), the view is pulled up to the new end. grow and
 * pull change the content's height by px; jumpShown says whether "Jump to
 * the newest" is on screen.
 */
async function transcriptAtNewest() {
  const el = scrollBox();
  let top = 0;
  let extra = 2000;
  const keepWithin = (v: number) => (top = Math.max(0, Math.min(v, el.scrollHeight - 600)));
  Object.defineProperty(el, 'clientHeight', { get: () => 600 });
  Object.defineProperty(el, 'scrollHeight', { get: () => rows().length * 140 + extra });
  Object.defineProperty(el, 'scrollTop', { get: () => top, set: keepWithin });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return { top: this.classList.contains('rows') ? -top : 0, bottom: 0, height: 0, left: 0, right: 0, width: 0 } as DOMRect;
  });
  render(ChatMessages, { messages: conversation(40), conversationId: 'c1', scroller: el, onlink: () => {} });
  const atBottom = () => waitFor(() => expect(el.scrollTop).toBe(el.scrollHeight - 600));
  await atBottom();
  return {
    el,
    atBottom,
    grow: (px: number) => (extra += px),
    pull: (px: number) => {
      extra -= px;
      keepWithin(top);
    },
    jumpShown: () => screen.queryByRole('button', { name: /Jump to the newest/ }) !== null,
  };
}

describe('following the newest', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stays on the newest when the content grows between its own scroll to the bottom and that scroll\'s event (an app taking its height)', async () => {
    const t = await transcriptAtNewest();
    // An app above grows by 300 px before the event of the window's own scroll comes.
    t.grow(300);
    await fireEvent.scroll(t.el);
    expect(t.jumpShown()).toBe(false);
    await t.atBottom();
    // The person scrolling up still leaves the newest.
    await fireEvent.wheel(t.el, { deltaY: -400 });
    t.el.scrollTop = t.el.scrollTop - 400;
    await fireEvent.scroll(t.el);
    await waitFor(() => expect(t.jumpShown()).toBe(true));
  });

  it('stays on the newest when the content shrinks under the view (the browser pulls the view up) and grows again before the scroll\'s event, as four apps of one turn do', async () => {
    const t = await transcriptAtNewest();
    // An app's frame gives back 60 px, then the next app takes 400.
    t.pull(60);
    t.grow(400);
    await fireEvent.scroll(t.el);
    expect(t.jumpShown()).toBe(false);
    await t.atBottom();
    // Typing in a text field (the message box) is not scrolling: the same pull still follows.
    const box = document.body.appendChild(document.createElement('textarea'));
    await fireEvent.keyDown(box, { key: 'Enter' });
    await fireEvent.keyDown(box, { key: 'ArrowUp' });
    t.pull(60);
    t.grow(400);
    await fireEvent.scroll(t.el);
    expect(t.jumpShown()).toBe(false);
    await t.atBottom();
    box.remove();
  });

  it('a press on the transcript ends when the window loses the focus: a second later, a view pulled up is the window\'s doing again', async () => {
    const t = await transcriptAtNewest();
    await fireEvent.pointerDown(t.el);
    await fireEvent.blur(window); // released over another window: no pointerup comes here
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + 1500);
    t.pull(60);
    t.grow(400);
    await fireEvent.scroll(t.el);
    expect(t.jumpShown()).toBe(false);
  });

  it.each([
    ['the wheel', (el: HTMLElement) => fireEvent.wheel(el, { deltaY: -60 })],
    ['Page Up, with the focus on the page', () => fireEvent.keyDown(document.body, { key: 'PageUp' })],
    ['the scroll bar dragged', (el: HTMLElement) => fireEvent.pointerDown(el)],
  ])('the same move up made by %s leaves the newest', async (_, move) => {
    const t = await transcriptAtNewest();
    await move(t.el);
    t.el.scrollTop = t.el.scrollTop - 60;
    await fireEvent.scroll(t.el);
    await waitFor(() => expect(t.jumpShown()).toBe(true));
    await fireEvent.pointerUp(window);
  });
});

describe('a long conversation read by pages', () => {
  afterEach(() => vi.restoreAllMocks());
  const all = conversation(1000);
  const newest = all.slice(800); // what opening it reads: Seq 801 on

  it('near the top, the page before is read and put above without moving what the person reads', async () => {
    const scroller = layoutBox();
    let props = { messages: newest, more: true, origin: 801, conversationId: 'c1', scroller, onlink: () => {}, onolder: async () => {} };
    const onolder = vi.fn(async () => {
      await Promise.resolve(); // as Go answers: later
      props = { ...props, messages: all.slice(600), more: true };
      await r.rerender(props);
    });
    props.onolder = onolder;
    const r = render(ChatMessages, props);
    expect(onolder).not.toHaveBeenCalled(); // at the bottom: nothing older is read
    // The person scrolls up to the first message read: Question 400 at the top, 50 px into it.
    await fireEvent.wheel(scroller, { deltaY: -1e6 });
    scroller.scrollTop = 50;
    await fireEvent.scroll(scroller);
    await waitFor(() => expect(onolder).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(scroller.scrollTop).toBe(200 * 140 + 50));
    expect(document.body.textContent).toContain('Question 400');
    expect(document.body.textContent).toContain('Answer 399.'); // the row above it, read now
    expect(screen.getByRole('button', { name: /Jump to the newest/ })).toBeTruthy();
  });

  it('the find box reads the older messages and reaches a match in them', async () => {
    const scroller = layoutBox();
    const column = document.createElement('section');
    column.append(scroller);
    document.body.append(column);
    Object.defineProperty(column, 'offsetParent', { get: () => document.body });
    let props = { messages: newest, more: true, origin: 801, conversationId: 'c1', scroller, onlink: () => {}, onall: async () => {} };
    const onall = vi.fn(async () => {
      await Promise.resolve();
      props = { ...props, messages: all, more: false };
      await r.rerender(props);
    });
    props.onall = onall;
    const r = render(ChatMessages, props, { baseElement: scroller });
    await fireEvent.keyDown(window, { key: 'f', code: 'KeyF', ctrlKey: true });
    const box = await screen.findByRole('searchbox', { name: 'Find in the conversation' });
    await fireEvent.input(box, { target: { value: 'zanzibar' } });
    expect(onall).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.querySelector('.find .count')?.textContent?.trim()).toBe('1 of 1'));
    await waitFor(() => expect(document.body.textContent).toContain('the word is Zanzibar'));
    // Scrolled to it: its row (the 8th) a third of the view from the top.
    expect(scroller.scrollTop).toBe(Math.max(0, 7 * 140 - 200));
  });
});
