// The questions store renders the broker's snapshots as they come: the
// newest by version wins, an older one is ignored, and Go is asked for the
// snapshot only once, when the page loads.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { question } from '../test/fixtures';

vi.mock('./api', async (orig) => (await import('../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function snap(version: number, over: Partial<api.Snapshot> = {}): api.Snapshot {
  return { version, waiting: [], opened: [], notices: [], ...over };
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.resetModules();
});

describe('questions store', () => {
  it('shows each snapshot it is sent and ignores an older one that arrives late', async () => {
    let send: (s: api.Snapshot) => void = () => {};
    mocked.onQuestions.mockImplementation((cb) => {
      send = cb;
      return () => {};
    });
    const { questions } = await import('./questions.svelte');
    const off = questions.start();
    send(snap(3, { current: question({ id: 'q3' }) }));
    expect(questions.current?.id).toBe('q3');
    send(snap(2, { current: question({ id: 'q2' }) })); // delivered out of order
    expect(questions.current?.id).toBe('q3');
    send(snap(4));
    expect(questions.current).toBeNull();
    off();
    // The page's one read at load; every later state came with its event.
    expect(mocked.questionsSnapshot).toHaveBeenCalledTimes(1);
  });

  it('a load answered after newer events does not undo them', async () => {
    let send: (s: api.Snapshot) => void = () => {};
    mocked.onQuestions.mockImplementation((cb) => {
      send = cb;
      return () => {};
    });
    let answerLoad: (s: api.Snapshot) => void = () => {};
    mocked.questionsSnapshot.mockImplementation(() => new Promise((r) => (answerLoad = r)));
    const { questions } = await import('./questions.svelte');
    questions.start();
    send(snap(7, { current: question({ id: 'new' }) }));
    answerLoad(snap(5, { current: question({ id: 'old' }) }));
    await Promise.resolve();
    expect(questions.current?.id).toBe('new');
  });

  it('lists the broker’s notices and its own errors; dismissing a broker notice asks Go', async () => {
    let send: (s: api.Snapshot) => void = () => {};
    mocked.onQuestions.mockImplementation((cb) => {
      send = cb;
      return () => {};
    });
    const { questions } = await import('./questions.svelte');
    questions.start();
    send(snap(1, { notices: [{ id: 'n1', kind: 'flood', serverId: 's1', serverName: 'Demo', refused: 3, message: { key: 'mcp.notice.flood', args: { server: 'Demo' }, text: '' } }] }));
    questions.notify({ kind: 'error', text: 'Could not decline.' });
    expect(questions.notices.map((n) => n.text)).toEqual(['Demo is sending too many requests. Some were refused without being shown.', 'Could not decline.']);
    questions.dismiss(questions.notices[1].key);
    expect(questions.notices.length).toBe(1);
    expect(mocked.dismissNotice).not.toHaveBeenCalled();
    questions.dismiss('n1');
    expect(mocked.dismissNotice).toHaveBeenCalledWith('n1');
  });
});
