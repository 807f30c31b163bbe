// The window's keyboard shortcuts in the whole window (api.ts mocked): each
// sidebar item says its shortcut, Ctrl+1 … Ctrl+5 open the panes and put the
// focus on the pane's heading, Ctrl+Q asks Go to quit. e2e/keyboard.test.mjs
// presses the same keys in the real app.
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
    ['{Control>}3{/Control}', 'Tools', 'Tools'],
    ['{Control>}4{/Control}', 'History', 'History'],
    ['{Control>}1{/Control}', 'Chat', 'New conversation'],
  ])('%s opens %s and puts the focus on its heading', async (keys, pane, title) => {
    const user = userEvent.setup();
    render(App);
    nav().getByRole('button', { name: 'Servers' }).focus();
    await user.keyboard(keys);
    expect(nav().getByRole('button', { name: pane }).getAttribute('aria-current')).toBe('page');
    const heading = await screen.findByRole('heading', { level: 1, name: title });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('Ctrl+Q asks Gatehouse to quit', async () => {
    const user = userEvent.setup();
    render(App);
    await user.keyboard('{Control>}q{/Control}');
    expect(mocked.quitApp).toHaveBeenCalledOnce();
  });
});
