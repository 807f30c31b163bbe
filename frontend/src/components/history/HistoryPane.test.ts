// Component tests of the History pane. api.ts is mocked; that Go records
// tool runs and keeps titles and URLs is tested in app/history_test.go and
// chat/loop_test.go, the whole path at 800×600 in e2e/history.test.mjs.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { HistoryPage, HistoryView } from '../../lib/api';
import HistoryPane from './HistoryPane.svelte';
import { language, loadLanguage } from '../../lib/i18n.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);
import { nav } from '../../lib/navigate.svelte';

function entry(id: number, over: Partial<HistoryView> = {}): HistoryView {
  return {
    id,
    time: '2026-11-22T10:00:00Z',
    serverId: 's1',
    serverName: 'Files',
    mode: 'form',
    tool: '',
    source: '',
    message: `Question ${id}`,
    fields: [],
    titles: {},
    url: '',
    outcome: 'accepted',
    answerMs: 1200,
    durationMs: 0,
    result: '',
    repeats: 0,
    lastTime: '',
    ...over,
  };
}

/** Serves a history of the given entries (newest first) a page of 100 at a time, as Go does. */
function serve(all: HistoryView[]) {
  mocked.history.mockImplementation(async (_server: string, _outcome: string, before = 0): Promise<HistoryPage> => {
    const start = before === 0 ? 0 : all.findIndex((e) => e.id < before);
    const entries = start < 0 ? [] : all.slice(start, start + 100);
    return { entries, more: start >= 0 && start + 100 < all.length };
  });
}

/** Opens the row whose summary is name and returns its details. */
async function openRow(name: string | RegExp) {
  const toggle = await screen.findByRole('button', { name });
  await userEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  return document.getElementById(toggle.getAttribute('aria-controls')!)!;
}

// The Chinese catalogue is a chunk the window fetches when first wanted; here it is loaded before the tests.
beforeAll(() => loadLanguage('zh-CN'));

describe('HistoryPane', () => {
  beforeEach(() => {
    vi.clearAllMocks();
  });

  it('a form shows its field titles, and its details pair each title with the answer', async () => {
    serve([
      entry(1, {
        message: 'Who are you?',
        fields: ['email', 'age'],
        titles: { email: 'Email address' },
        answer: { email: 'ada@example.com', age: 36 },
      }),
    ]);
    render(HistoryPane);
    expect(await screen.findByText('Fields: Email address, age')).toBeTruthy();
    const details = await openRow(/Who are you\?/);
    const fields = within(details).getByRole('table', { name: 'Fields' });
    const email = within(fields).getByRole('rowheader', { name: 'Email address (email)' }).closest('tr')!;
    expect(email.textContent).toContain('ada@example.com');
    expect(within(fields).getByRole('rowheader', { name: 'age' }).closest('tr')!.textContent).toContain('36');
  });

  it('the When column of the wide table keeps the date and time on one line (issue 26)', async () => {
    serve([entry(1)]);
    render(HistoryPane);
    await screen.findByText('Question 1');
    const when = document.querySelector('tbody td.when .stamp') as HTMLElement;
    expect(when.textContent).toBe(new Date('2026-11-22T10:00:00Z').toLocaleString('en'));
    expect(when.classList.contains('one-line')).toBe(true);
  });

  it('a form whose answers were not remembered says how to keep them', async () => {
    serve([entry(1, { message: 'Who are you?', fields: ['email'], titles: { email: 'Email address' } })]);
    render(HistoryPane);
    const details = await openRow(/Who are you\?/);
    expect(within(details).getByText(/Answers are not kept: turn on “Remember my answers in the history” in/)).toBeTruthy();
  });

  it('a URL request shows the address it asked for, in the row and in its details', async () => {
    const url = 'https://accounts.example.com/connect?state=abc';
    serve([entry(1, { mode: 'url', message: 'Connect your account', url })]);
    render(HistoryPane);
    expect(await screen.findByText(url)).toBeTruthy();
    const details = await openRow(/Connect your account/);
    expect(details.querySelector('dl')!.textContent).toContain(`Address${url}`);
  });

  it('a remembered tool run shows where it came from, its duration, arguments and result', async () => {
    serve([
      entry(1, {
        mode: 'tool-run',
        tool: 'read_file',
        source: 'chat',
        message: '',
        outcome: 'ok',
        answerMs: 0,
        durationMs: 2400,
        arguments: { path: 'notes.md' },
        result: '# Notes',
      }),
    ]);
    render(HistoryPane);
    expect(await screen.findByText('from the chat')).toBeTruthy();
    const row = screen.getByRole('button', { name: 'Tool call: read_file' }).closest('tr')!;
    expect(row.textContent).toContain('Ran');
    const details = await openRow('Tool call: read_file');
    expect(details.textContent).toContain('Duration2.4 s');
    expect(within(details).getByText(/"path": "notes.md"/)).toBeTruthy();
    expect(within(details).getByText('# Notes')).toBeTruthy();
  });

  it('a tool run says where it came from, in either language', async () => {
    const run = (id: number, source: string) => entry(id, { mode: 'tool-run', tool: `t${id}`, source, message: '', outcome: 'ok' });
    serve([run(5, 'tools'), run(4, 'chat'), run(3, 'cli'), run(2, 'app'), run(1, 'client')]);
    const { unmount } = render(HistoryPane);
    for (const from of ['from the Tools pane', 'from the chat', 'from the command line', "from a server's app", 'from another app']) {
      expect(await screen.findByText(from)).toBeTruthy();
    }
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      expect(await screen.findByText('来自命令行')).toBeTruthy();
    } finally {
      language.choice = '';
    }
  });

  it('a run from another app names it as it claims and what launched it, as text', async () => {
    serve([
      entry(2, { mode: 'tool-run', tool: 'send', source: 'client', message: '', outcome: 'ok', client: 'claude-code 2.1', launcher: '/usr/bin/node' }),
      entry(1, { mode: 'tool-run', tool: 'send', source: 'client', message: '', outcome: 'ok', client: '<b>x</b>' }),
    ]);
    render(HistoryPane);
    expect(await screen.findByText('claude-code 2.1, started by /usr/bin/node')).toBeTruthy();
    expect(await screen.findByText('<b>x</b>, started by unknown')).toBeTruthy();
  });

  it('a tool run that was not remembered shows no arguments and says why', async () => {
    const denied = { key: 'mcp.approval.denied', args: {}, text: 'The person denied this call.' };
    serve([entry(1, { mode: 'tool-run', tool: 'delete_file', source: 'tools', outcome: 'denied', detail: denied })]);
    render(HistoryPane);
    const details = await openRow('Tool call: delete_file');
    expect(details.textContent).toContain('Not allowed: The person denied this call.');
    expect(within(details).queryByText('Arguments')).toBeNull();
    expect(within(details).getByText(/Arguments and results are not kept/)).toBeTruthy();
  });

  it("a model's tool call is named in the window's language, not by the stored English words", async () => {
    serve([entry(1, { mode: 'tool-call', tool: 'add', message: 'Call add', source: 'chat' })]);
    const { unmount } = render(HistoryPane);
    await screen.findByRole('button', { name: /The model asked to call add/ });
    expect(screen.queryByText('Call add')).toBeNull();
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      await screen.findByRole('button', { name: /模型请求调用 add/ });
    } finally {
      language.choice = '';
    }
  });

  it("a tool call another app asked for through the gateway says so, not the model's, in either language", async () => {
    serve([entry(1, { mode: 'tool-call', tool: 'send_payment', message: '', source: 'client', outcome: 'declined', client: 'qwen 0.0.1', launcher: '/usr/bin/node' })]);
    const { unmount } = render(HistoryPane);
    await screen.findByRole('button', { name: /Another app asked to call send_payment/ });
    expect(screen.queryByText(/model asked/i)).toBeNull();
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      await screen.findByRole('button', { name: /其他应用请求调用 send_payment/ });
    } finally {
      language.choice = '';
    }
  });

  it("a tool call an app asked for says so, not the model's, in either language", async () => {
    serve([entry(1, { mode: 'tool-call', tool: 'set-allocation', message: '', source: 'app', outcome: 'declined' })]);
    const { unmount } = render(HistoryPane);
    const details = await openRow(/An app asked to call set-allocation/);
    expect(details.textContent).toContain('App wants to call a tool');
    expect(screen.queryByText(/model/i)).toBeNull();
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      await screen.findByRole('button', { name: /应用请求调用 set-allocation/ });
    } finally {
      language.choice = '';
    }
  });

  it("an app's message for the model reads as Go words it, with the text it gave as text and the person's answer", async () => {
    const said = (key: string, app: string, text: string) => ({ key, args: { app }, text });
    serve([
      entry(3, {
        mode: 'app-message',
        message: '',
        summary: said('history.summary.appMessage', '<b>Budget</b>', 'The <b>Budget</b> app writes a message to your model'),
        answer: { text: '<img src=x onerror="window.pwned=1">\n  pay\u202Eexe' },
        outcome: 'accepted',
      }),
      entry(2, { mode: 'app-message', message: '', summary: said('history.summary.appContext', 'Budget', 'The Budget app gives your model context'), outcome: 'declined' }),
      entry(1, { mode: 'app-message', message: '', outcome: 'declined' }),
    ]);
    const { unmount } = render(HistoryPane);
    const sent = await screen.findByRole('button', { name: /The <b>Budget<\/b> app writes a message to your model/ });
    expect(sent.closest('tr')!.textContent).toContain('Answered');
    const context = screen.getByRole('button', { name: /The Budget app gives your model context/ });
    expect(context.closest('tr')!.textContent).toContain('Declined');
    // An entry without Go's words still says what it was.
    expect(screen.getByRole('button', { name: /An app asked to write to the model/ })).toBeTruthy();
    await userEvent.click(sent);
    const details = document.getElementById(sent.getAttribute('aria-controls')!)!;
    expect(details.textContent).toContain('Message from an app');
    expect(within(details).getByText("The app's text")).toBeTruthy();
    expect(details.querySelector('pre.app-text')!.textContent).toBe('<img src=x onerror="window.pwned=1">\n  pay⟨U+202E⟩exe');
    expect(document.querySelector('.history img, .history b')).toBeNull();
    // Not remembered: the details say why there is no text.
    await userEvent.click(context);
    const notKept = document.getElementById(context.getAttribute('aria-controls')!)!;
    expect(within(notKept).getByText(/Answers are not kept/)).toBeTruthy();
    // "Settings → Requests from servers" is a link that goes there.
    await userEvent.click(within(notKept).getByRole('button', { name: 'Settings → Requests from servers' }));
    expect([nav.pane, nav.section]).toEqual(['settings', 'requests']);
    nav.reset();
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      expect(await screen.findByRole('button', { name: /应用请求向模型写入内容/ })).toBeTruthy();
      expect(screen.getByRole('button', { name: /“Budget”应用向你的模型提供上下文/ })).toBeTruthy();
    } finally {
      language.choice = '';
    }
  });

  it("a page an app wanted opened says so, with the app's name and the address as text", async () => {
    serve([
      entry(1, {
        mode: 'app-link',
        message: '',
        summary: { key: 'history.summary.appLink', args: { app: '<b>Map</b>' }, text: 'The <b>Map</b> app asks to open a page' },
        url: 'https://maps.example.org/<script>',
        outcome: 'accepted',
      }),
    ]);
    const { unmount } = render(HistoryPane);
    const row = await screen.findByRole('button', { name: /The <b>Map<\/b> app asks to open a page/ });
    expect(row.closest('tr')!.textContent).toContain('https://maps.example.org/<script>');
    await userEvent.click(row);
    const details = document.getElementById(row.getAttribute('aria-controls')!)!;
    expect(details.textContent).toContain('Page an app wants opened');
    expect(document.querySelector('.history b, .history script')).toBeNull();
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      await userEvent.click(await screen.findByRole('button', { name: /“<b>Map<\/b>”应用请求打开一个网页/ }));
      expect(document.querySelector('.history')!.textContent).toContain('应用请求打开的网页');
    } finally {
      language.choice = '';
    }
  });

  it('a refusal repeated by a flood is one row that says how many more times, and until when', async () => {
    serve([
      entry(2, { outcome: 'rate_limited', detail: { key: 'mcp.history.flood', args: {}, text: 'Too many requests.' }, repeats: 9999, lastTime: '2026-11-22T10:05:00Z' }),
      entry(1, { outcome: 'rate_limited', detail: { key: 'mcp.history.flood', args: {}, text: 'Too many requests.' }, repeats: 1, lastTime: '2026-11-22T10:00:01Z' }),
    ]);
    const { unmount } = render(HistoryPane);
    const rows = await screen.findAllByRole('button', { expanded: false });
    const flood = rows.find((b) => b.closest('tr')?.textContent?.includes('9999 more times'));
    expect(flood, 'the row says the count').toBeTruthy();
    expect(screen.getByText('Refused the same way once more after this')).toBeTruthy();
    await userEvent.click(flood!);
    const details = document.getElementById(flood!.getAttribute('aria-controls')!)!;
    expect(details.textContent).toMatch(/then 9999 more times until/);
    unmount();
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      expect(await screen.findByText('此后又以同样方式拒绝了 9999 次')).toBeTruthy();
    } finally {
      language.choice = '';
    }
  });

  it("Gatehouse's words in a row follow the window's language; an older entry's English still shows", async () => {
    const said = (key: string, text: string, args = {}) => ({ key, args, text });
    serve([
      entry(2, {
        mode: 'sampling',
        message: '',
        summary: said('history.summary.sampling', 'Asks your model to write a message'),
        outcome: 'declined',
        detail: said('mcp.history.rejectedRequest', 'the person rejected the request'),
      }),
      entry(1, { mode: 'sampling', message: 'Asks your model to write a message', detail: said('', 'an older reason', { text: 'an older reason' }) }),
    ]);
    language.choice = 'zh-CN';
    try {
      render(HistoryPane);
      const details = await openRow('请你的模型写一条消息');
      expect(details.textContent).toContain('用户拒绝了此请求');
      expect(details.textContent).not.toContain('the person rejected the request');
      const older = await openRow('Asks your model to write a message');
      expect(older.textContent).toContain('an older reason');
    } finally {
      language.choice = '';
    }
  });

  it('server text in a row stays text', async () => {
    serve([entry(1, { message: '<img src=x onerror=alert(1)>', fields: ['a'], titles: { a: '<b>bold</b>' } })]);
    const { container } = render(HistoryPane);
    expect(await screen.findByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(container.querySelector('img, b')).toBeNull();
  });

  const firstRow = () => document.querySelector('table.history tbody .row-toggle .msg')?.textContent?.trim();

  it('10,000 entries are shown a page of 100 at a time, newest first', async () => {
    serve(Array.from({ length: 10_000 }, (_, i) => entry(10_000 - i)));
    const started = performance.now();
    render(HistoryPane);
    await waitFor(() => expect(firstRow()).toBe('Question 10000'));
    const firstPage = performance.now() - started;
    expect(document.querySelectorAll('table.history tbody .row-toggle')).toHaveLength(100);
    const older = screen.getByRole('button', { name: 'Older' });
    const stepStart = performance.now();
    for (let page = 2; page <= 11; page++) {
      older.click();
      await waitFor(() => expect(firstRow()).toBe(`Question ${10_000 - (page - 1) * 100}`));
    }
    const perPage = (performance.now() - stepStart) / 10;
    // The figures for the report; timings are not asserted (shared machines).
    console.log(`history of 10,000 entries: first page ${firstPage.toFixed(0)} ms, each further page ${perPage.toFixed(0)} ms (jsdom)`);
    expect(mocked.history).toHaveBeenCalledTimes(11);
  }, 30_000);

  it('Older stops at the oldest page and Newer goes back', async () => {
    serve(Array.from({ length: 250 }, (_, i) => entry(250 - i)));
    render(HistoryPane);
    await waitFor(() => expect(firstRow()).toBe('Question 250'));
    const older = screen.getByRole('button', { name: 'Older' }) as HTMLButtonElement;
    const newer = screen.getByRole('button', { name: 'Newer' }) as HTMLButtonElement;
    expect(newer.disabled).toBe(true);
    await userEvent.click(older);
    await waitFor(() => expect(firstRow()).toBe('Question 150'));
    await userEvent.click(older);
    await waitFor(() => expect(firstRow()).toBe('Question 50'));
    expect(document.querySelectorAll('table.history tbody .row-toggle')).toHaveLength(50);
    expect(older.disabled).toBe(true);
    await userEvent.click(newer);
    await waitFor(() => expect(firstRow()).toBe('Question 150'));
  });
});
