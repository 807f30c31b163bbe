// Component tests of a call's progress (CallProgress, ToolCallCard) and of
// a server's log view with its level filter (ServerLog). api.ts is mocked;
// the real Go backend is exercised by e2e/live.test.mjs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import CallProgress from '../tools/CallProgress.svelte';
import ServerLog from '../servers/ServerLog.svelte';
import ToolCallCard from '../chat/ToolCallCard.svelte';
import { jsonNode } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

describe('CallProgress', () => {
  const cases = [
    { name: 'a known total fills the bar and says how far', progress: { progress: 2, total: 5, message: '' }, value: '2', text: '2 of 5' },
    { name: 'an unknown total moves on its own with the count', progress: { progress: 7, total: 0, message: '' }, value: null, text: '7 done' },
    { name: 'before any notification it says it works', progress: null, value: null, text: 'Working…' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      render(CallProgress, { progress: c.progress });
      const bar = document.querySelector('progress');
      expect(bar?.getAttribute('value')).toBe(c.value);
      expect(screen.getByText(c.text)).toBeTruthy();
    });
  }

  it('shows the server message as text, never as HTML', () => {
    render(CallProgress, { progress: { progress: 1, total: 2, message: '<b>indexing</b>' } });
    expect(screen.getByText('<b>indexing</b>')).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
  });
});

describe('ToolCallCard', () => {
  it('a running call shows its progress and Cancel cancels it', async () => {
    const user = userEvent.setup();
    const oncancel = vi.fn();
    render(ToolCallCard, {
      serverName: 'Everything',
      tool: 'trigger-long-running-operation',
      view: jsonNode({}),
      state: 'running',
      progress: { progress: 3, total: 10, message: 'step 3' },
      oncancel,
    });
    expect(screen.getByText('3 of 10')).toBeTruthy();
    expect(screen.getByText('step 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(oncancel).toHaveBeenCalledOnce();
  });

  it('a finished call shows no progress', () => {
    render(ToolCallCard, { serverName: 'S', tool: 't', view: jsonNode({}), state: 'done', progress: { progress: 1, total: 1, message: '' } });
    expect(document.querySelector('progress')).toBeNull();
  });
});

describe('ServerLog', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    mocked.serverLogLines.mockResolvedValue([
      { source: 'stderr', at: '10:00:00', level: '', logger: '', text: 'listening' },
      { source: 'server', at: '10:00:01', level: 'debug', logger: 'sim', text: 'a debug line' },
      { source: 'server', at: '10:00:02', level: 'error', logger: '', text: 'an error line' },
    ]);
  });

  it('the level filter hides the server messages below it, never stderr', async () => {
    const user = userEvent.setup();
    render(ServerLog, { id: 'a', name: 'Everything' });
    expect(await screen.findByText(/a debug line/)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Show'), 'warning');
    expect(screen.queryByText(/a debug line/)).toBeNull();
    expect(screen.getByText('[error 10:00:02] an error line', { exact: false })).toBeTruthy();
    expect(screen.getByText(/listening/)).toBeTruthy();
  });

  it('asks the chosen level of a server that logs, and offers none to one that does not', async () => {
    const user = userEvent.setup();
    mocked.setLogLevel.mockResolvedValue({} as api.ServerView);
    const { unmount } = render(ServerLog, { id: 'a', name: 'Everything', logs: true, level: '' });
    await user.selectOptions(screen.getByLabelText('Ask the server for'), 'info');
    await waitFor(() => expect(mocked.setLogLevel).toHaveBeenCalledWith('a', 'info'));
    unmount();
    render(ServerLog, { id: 'b', name: 'Quiet' });
    expect(screen.queryByLabelText('Ask the server for')).toBeNull();
  });
});
