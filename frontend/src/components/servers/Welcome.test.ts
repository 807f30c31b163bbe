// The first-start welcome, in the whole window: when it shows, that Dismiss
// hides it for good (through Go), and where each of its buttons leads. api.ts
// is mocked; e2e/welcome.test.mjs checks the real app across a restart.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import { nav } from '../../lib/navigate.svelte';
import { servers } from '../../lib/servers.svelte';
import { tools } from '../../lib/tools.svelte';
import { welcome } from '../../lib/welcome.svelte';
import App from '../../App.svelte';
import { server, serverList, tool } from '../../test/fixtures';
import type { ServerView } from '../../lib/api';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const demo: ServerView = { ...server('d', 'Demo server'), demo: true };
const own = server('o', 'Files');

function welcomeBox() {
  return screen.queryByRole('region', { name: 'Welcome to Gatehouse' });
}

describe('Welcome', () => {
  // Tools and Settings are chunks the window fetches when first opened (App.svelte); transformed ahead here.
  beforeAll(async () => {
    await Promise.all([import('../tools/ToolRunner.svelte'), import('../settings/SettingsPane.svelte')]);
  });

  beforeEach(() => {
    vi.clearAllMocks();
    mocked.welcomeDismissed.mockResolvedValue(false);
    servers.set([]);
    servers.loaded = false;
    tools.reset();
    welcome.dismissed = null;
    welcome.error = '';
    nav.reset(); // the window starts on Servers
  });

  const cases: { name: string; list: ServerView[]; dismissed: boolean; shows: boolean; tryDemo: boolean }[] = [
    { name: 'shows on a setup with no servers, without the demo button', list: [], dismissed: false, shows: true, tryDemo: false },
    { name: 'shows on a demo-only setup, with the demo button', list: [demo], dismissed: false, shows: true, tryDemo: true },
    { name: 'stays away once the person has a server of their own', list: [demo, own], dismissed: false, shows: false, tryDemo: false },
    { name: 'stays away with only servers of their own', list: [own], dismissed: false, shows: false, tryDemo: false },
    { name: 'never comes back once dismissed', list: [demo], dismissed: true, shows: false, tryDemo: false },
  ];

  it.each(cases)('$name', async ({ list, dismissed, shows, tryDemo }) => {
    mocked.listServers.mockResolvedValue(serverList(list));
    mocked.welcomeDismissed.mockResolvedValue(dismissed);
    render(App);
    await waitFor(() => expect(servers.loaded && welcome.dismissed !== null).toBe(true));
    expect(!!welcomeBox()).toBe(shows);
    if (!shows) return;
    const box = welcomeBox()!;
    expect(within(box).queryByRole('button', { name: "Try the demo's plan_trip" }) !== null).toBe(tryDemo);
    expect(within(box).getByRole('button', { name: 'Add a server' })).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Add a model provider' })).toBeTruthy();
  });

  it('Dismiss tells Go and hides the welcome', async () => {
    const user = userEvent.setup();
    mocked.listServers.mockResolvedValue(serverList([demo]));
    render(App);
    const box = await screen.findByRole('region', { name: 'Welcome to Gatehouse' });
    await user.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect(mocked.dismissWelcome).toHaveBeenCalledOnce();
    await waitFor(() => expect(welcomeBox()).toBeNull());
  });

  it('stays, with a sentence, when Go could not store the dismissal', async () => {
    const user = userEvent.setup();
    mocked.listServers.mockResolvedValue(serverList([demo]));
    mocked.dismissWelcome.mockRejectedValueOnce(new Error('the data file is read-only'));
    render(App);
    const box = await screen.findByRole('region', { name: 'Welcome to Gatehouse' });
    await user.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect((await within(box).findByRole('alert')).textContent).toContain('the data file is read-only');
    expect(welcomeBox()).not.toBeNull();
  });

  it("Try the demo's plan_trip opens the Tools pane with the demo server and plan_trip chosen", async () => {
    const user = userEvent.setup();
    mocked.listServers.mockResolvedValue(serverList([demo]));
    mocked.listTools.mockResolvedValue([tool('echo'), tool('plan_trip', { title: 'Plan a trip' })]);
    render(App);
    const box = await screen.findByRole('region', { name: 'Welcome to Gatehouse' });
    await user.click(within(box).getByRole('button', { name: "Try the demo's plan_trip" }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tools' })).toBeTruthy();
    expect((screen.getByLabelText('Server') as HTMLSelectElement).value).toBe('d');
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Plan a trip' })).toBeTruthy());
    expect(screen.getByRole('button', { name: /Plan a trip/ }).getAttribute('aria-current')).toBe('true');
  });

  it('Add a server opens the add-server dialog', async () => {
    const user = userEvent.setup();
    mocked.listServers.mockResolvedValue(serverList([demo]));
    render(App);
    const box = await screen.findByRole('region', { name: 'Welcome to Gatehouse' });
    await user.click(within(box).getByRole('button', { name: 'Add a server' }));
    expect(await screen.findByRole('dialog', { name: 'Add a server' })).toBeTruthy();
  });

  it('Add a model provider goes to Settings → Models', async () => {
    const user = userEvent.setup();
    mocked.listServers.mockResolvedValue(serverList([demo]));
    mocked.appInfo.mockResolvedValue({ version: '1', dataDir: '/d', dbPath: '/d/gatehouse.db', keyring: false });
    mocked.getSettings.mockResolvedValue({ elicitationTimeoutMinutes: 10, toolCallTimeoutSeconds: 60, rememberAnswers: false });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    render(App);
    const box = await screen.findByRole('region', { name: 'Welcome to Gatehouse' });
    await user.click(within(box).getByRole('button', { name: 'Add a model provider' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    const models = await screen.findByRole('heading', { level: 2, name: 'Models' });
    await waitFor(() => expect(scrolled.mock.contexts).toContain(models));
    // Settings opened on its Models section, the focus on its heading (lib/navigate's openSettings).
    expect(screen.getByRole('tab', { name: 'Models' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(models));
  });
});
