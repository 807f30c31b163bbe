// The window's keyboard shortcuts in the whole window (api.ts mocked): each
// sidebar item says its shortcut, Ctrl+1 … Ctrl+5 open the panes and put the
// focus at the pane's start (its heading or first control), Ctrl+Q asks Go
// to quit. e2e/keyboard.test.mjs presses the same keys in the real app.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from './lib/api';
import { servers } from './lib/servers.svelte';
import { welcome } from './lib/welcome.svelte';
import App from './App.svelte';

vi.mock('./lib/api', async (orig) => (await import('./test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const nav = () => within(screen.getByRole('navigation', { name: 'Sections' }));

describe('the window’s shortcuts', () => {
  // The panes other than Servers are chunks the window fetches when first
  // opened; here Vite would transform them on first use, which can take
  // longer than a findBy waits on a busy machine.
  beforeAll(async () => {
    await Promise.all([import('./components/tools/ToolRunner.svelte'), import('./components/history/HistoryPane.svelte'), import('./components/chat/ChatPane.svelte')]);
  });

  beforeEach(() => {
    vi.clearAllMocks();
    mocked.welcomeDismissed.mockResolvedValue(true);
    servers.set([]);
    servers.loaded = false;
    welcome.dismissed = null;
  });

  it('each sidebar item names its shortcut in its tooltip, in the sidebar’s order', () => {
    render(App);
    const items = nav().getAllByRole('button');
    expect(items.map((b) => b.title)).toEqual([
      'Chat (Ctrl+1)',
      'Servers (Ctrl+2)',
      'Tools (Ctrl+3)',
      'History (Ctrl+4)',
      'Settings (Ctrl+5)',
    ]);
    expect(items.map((b) => b.getAttribute('aria-keyshortcuts'))).toEqual([
      'Control+1',
      'Control+2',
      'Control+3',
      'Control+4',
      'Control+5',
    ]);
  });

  it.each([
    ['{Control>}3{/Control}', 'Tools', { role: 'heading', name: 'Tools' }],
    ['{Control>}4{/Control}', 'History', { role: 'heading', name: 'History' }],
    // Chat reads from its conversation list on the left.
    ['{Control>}1{/Control}', 'Chat', { role: 'button', name: 'New conversation' }],
  ] as const)('%s opens %s and puts the focus at the start of the pane', async (keys, pane, start) => {
    const user = userEvent.setup();
    render(App);
    nav().getByRole('button', { name: 'Servers' }).focus();
    await user.keyboard(keys);
    expect(nav().getByRole('button', { name: pane }).getAttribute('aria-current')).toBe('page');
    const target = await screen.findByRole(start.role, { name: start.name });
    await waitFor(() => expect(document.activeElement).toBe(target));
    expect(target.closest('main')).not.toBeNull();
  });

  it('Ctrl+Q asks Gatehouse to quit', async () => {
    const user = userEvent.setup();
    render(App);
    await user.keyboard('{Control>}q{/Control}');
    expect(mocked.quitApp).toHaveBeenCalledOnce();
  });
});
