// Component tests of the servers pane. api.ts is mocked; the real Go
// backend is exercised by the end-to-end tests in e2e/.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import { servers } from '../../lib/servers.svelte';
import ServerList from './ServerList.svelte';
import { msg, server } from '../../test/fixtures';
import type { StatusView } from '../../lib/api';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function row(name: string) {
  return screen.getByRole('listitem', { name });
}

describe('ServerList', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    servers.set([]);
    servers.error = '';
  });

  const cases: { name: string; status: Partial<StatusView>; enabled?: boolean; badge: string; shows: (string | RegExp)[] }[] = [
    {
      name: 'connected shows the protocol and what the server calls itself',
      status: { state: 'connected', protocolVersion: '2025-06-18', serverName: 'everything-server', serverVersion: '2.0.0' },
      badge: 'Connected',
      shows: ['everything-server 2.0.0', 'protocol 2025-06-18', 'over stdio', '2 tools'],
    },
    {
      name: 'connecting shows the hint',
      status: { state: 'connecting', message: msg('Starting the program…') },
      badge: 'Connecting…',
      shows: ['Starting the program…'],
    },
    {
      name: 'error shows the sentence',
      status: { state: 'error', message: msg('command not found: foo') },
      badge: 'Error',
      shows: ['command not found: foo'],
    },
    {
      name: 'disabled says how to turn it on',
      status: { state: 'disabled' },
      enabled: false,
      badge: 'Disabled',
      shows: ['Turned off. Switch it on to connect.'],
    },
  ];

  it.each(cases)('$name', ({ status, enabled, badge, shows }) => {
    servers.set([server('a', 'Alpha', status, enabled ?? true)]);
    render(ServerList);
    const r = row('Alpha');
    const b = r.querySelector('[data-state]');
    expect(b?.textContent?.trim()).toBe(badge);
    for (const text of shows) expect(within(r).getByText(text)).toBeTruthy();
    expect((within(r).getByRole('switch') as HTMLInputElement).checked).toBe(enabled ?? true);
  });

  it('server-supplied names and messages are text, not markup', () => {
    const hostile = '<img src=x onerror="window.__pwned=1">';
    servers.set([server('h', hostile, { state: 'error', message: msg(hostile) })]);
    const { container } = render(ServerList);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getAllByText(hostile).length).toBe(2);
  });

  it("a server that exited at start shows its last stderr lines on its card, as text (issue 26)", () => {
    const stderr = ["Error: Cannot find module 'x'", 'Require stack:', '- /srv/index.js', '<b onclick="x()">not markup</b>', 'bidi\u202egnp.exe'];
    servers.set([
      server('b', 'Broken', { state: 'error', message: msg('/usr/bin/node exited with code 1'), stderr }),
      server('c', 'Fine', { state: 'connected' }),
    ]);
    const { container } = render(ServerList);
    const r = row('Broken');
    expect(within(r).getByText('/usr/bin/node exited with code 1')).toBeTruthy();
    const tail = within(r).getByRole('generic', { name: 'What the server wrote last (stderr):' });
    expect(tail.tagName).toBe('PRE');
    const lines = tail.textContent!.split('\n');
    expect(lines.slice(0, 4)).toEqual(stderr.slice(0, 4));
    expect(lines[4]).not.toContain('\u202e'); // a hidden character is shown, not obeyed
    expect(container.querySelector('b')).toBeNull();
    // Only the failed server's card has it.
    expect(within(row('Fine')).queryByText(/stderr/)).toBeNull();
  });

  it('says so when there are no servers', () => {
    servers.set([]);
    render(ServerList);
    expect(screen.getByText(/No servers yet/)).toBeTruthy();
  });

  it('the switch, Reconnect and the log call Go', async () => {
    const user = userEvent.setup();
    mocked.serverLogLines.mockResolvedValue([
      { source: 'stderr', at: '10:00:00', level: '', logger: '', text: 'started' },
      { source: 'gatehouse', at: '10:00:01', level: '', logger: '', text: 'connected' },
    ]);
    servers.set([server('a', 'Alpha')]);
    render(ServerList);
    const r = row('Alpha');

    await user.click(within(r).getByRole('switch'));
    expect(mocked.setServerEnabled).toHaveBeenCalledWith('a', false);

    await user.click(within(r).getByRole('button', { name: 'Reconnect' }));
    expect(mocked.reconnectServer).toHaveBeenCalledWith('a');

    await user.click(within(r).getByRole('button', { name: 'Show log' }));
    expect(await within(r).findByText(/started/)).toBeTruthy();
    expect(mocked.serverLogLines).toHaveBeenCalledWith('a');
  });

  it('a failed action is explained', async () => {
    const user = userEvent.setup();
    mocked.reconnectServer.mockRejectedValue(new Error('the server is disabled'));
    servers.set([server('a', 'Alpha')]);
    render(ServerList);
    await user.click(within(row('Alpha')).getByRole('button', { name: 'Reconnect' }));
    expect(await screen.findByText('Could not reconnect Alpha: the server is disabled')).toBeTruthy();
  });

  it('Remove asks first, and only removes after confirming', async () => {
    const user = userEvent.setup();
    servers.set([server('a', 'Alpha'), server('b', 'Beta')]);
    render(ServerList);

    await user.click(within(row('Alpha')).getByRole('button', { name: 'Remove' }));
    let dialog = screen.getByRole('dialog', { name: 'Remove Alpha?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mocked.removeServer).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(row('Alpha')).getByRole('button', { name: 'Remove' }));
    dialog = screen.getByRole('dialog', { name: 'Remove Alpha?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(mocked.removeServer).toHaveBeenCalledWith('a'));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Alpha' })).toBeNull());
    expect(row('Beta')).toBeTruthy();
  });

  it('Add server opens the editor', async () => {
    const user = userEvent.setup();
    render(ServerList);
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    // The editor's code is fetched when first wanted.
    expect(await screen.findByRole('dialog', { name: 'Add a server' })).toBeTruthy();
  });
});
