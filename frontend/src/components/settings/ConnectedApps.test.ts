// Component tests of Settings → Connected apps and Connect an app. api.ts is
// mocked; Go's side is tested in app/clientapps_test.go, app/connect_test.go
// and connectapp/, the whole road in e2e/connect.test.mjs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ClientApp, ConnectChange, ConnectStatus, ConnectUndoChange, ServerPolicyView, ToolPolicyView } from '../../lib/api';
import ConnectedApps from './ConnectedApps.svelte';
import { savedMark } from '../../lib/saved.svelte';
import { savedNote } from '../../test/saved-note';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const noHints = { readOnly: false, destructive: false, idempotent: false, openWorld: false };
const noMessage = { key: '', args: {}, text: '' };

function tool(name: string, over: Partial<ToolPolicyView> = {}): ToolPolicyView {
  return { name, title: name, hints: noHints, offered: true, mode: 'default', effective: 'ask', why: noMessage, held: false, ...over };
}

function server(id: string, name: string, tools: ToolPolicyView[], over: Partial<ServerPolicyView> = {}): ServerPolicyView {
  return { serverId: id, serverName: name, connected: true, mode: 'ask', trusted: false, requests: 'ask', mutedUntil: '', tools, ...over };
}

function clientApp(over: Partial<ClientApp> = {}): ClientApp {
  return {
    id: 'a1',
    name: 'qwen-code',
    version: '0.9.1',
    launcher: '/usr/bin/node',
    command: 'node /opt/qwen/cli.js',
    firstSeen: '2026-11-20T10:00:00Z',
    lastSeen: '2026-11-26T18:30:00Z',
    calls: 42,
    ...over,
  };
}

function status(app: string, appName: string, over: Partial<ConnectStatus> = {}): ConnectStatus {
  return { app, appName, file: `/home/p/.${app}/settings.json`, exists: true, connected: false, problem: noMessage, canUndo: false, undoTime: '', ...over };
}

const diff = '--- /home/p/.qwen/settings.json\n+++ /home/p/.qwen/settings.json\n@@ -1,3 +1,7 @@\n {\n+  "mcpServers": {\n+    "gatehouse": { "command": "/usr/bin/gatehouse", "args": ["gateway"] }\n+  },\n   "theme": "dark"\n }\n<b>not markup</b>\n';

function preview(over: Partial<ConnectChange> = {}): ConnectChange {
  return {
    app: 'qwen',
    appName: 'Qwen Code',
    file: '/home/p/.qwen/settings.json',
    exists: true,
    digest: 'd1',
    entry: { name: 'gatehouse', command: '/usr/bin/gatehouse', args: ['gateway'] },
    unchanged: false,
    removed: [],
    kept: [],
    diff,
    result: 'r1',
    ...over,
  };
}

function undoPreview(over: Partial<ConnectUndoChange> = {}): ConnectUndoChange {
  return {
    app: 'qwen',
    appName: 'Qwen Code',
    file: '/home/p/.qwen/settings.json',
    whole: false,
    entry: '',
    restored: [],
    unchanged: false,
    digest: 'd1',
    result: 'r1',
    diff: '',
    time: '2026-11-26T18:00:00Z',
    ...over,
  };
}

function card(name: string) {
  return screen.getByRole('listitem', { name });
}

describe('ConnectedApps', () => {
  let apps: ClientApp[];

  beforeEach(() => {
    vi.clearAllMocks();
    savedMark.clear();
    apps = [clientApp()];
    mocked.listClientApps.mockImplementation(async () => apps);
    mocked.listPolicies.mockResolvedValue([
      server('s1', 'Files', [tool('read_file', { effective: 'allow' }), tool('delete_file')]),
      server('s2', 'Web', [tool('fetch')]),
    ]);
    // Go's view of the permissions for the app: its own modes over the chat's.
    mocked.clientAppPermissions.mockImplementation(async () => [
      server('s1', 'Files', [
        tool('read_file', { effective: 'allow' }),
        tool('delete_file', { mode: 'deny', effective: 'deny' }),
        tool('write_file', { mode: 'allow', effective: 'ask', held: true }),
      ]),
      server('s2', 'Web', [tool('fetch')]),
    ]);
    mocked.updateClientApp.mockImplementation(async (a) => a);
    mocked.cutOffClientApp.mockImplementation(async (id, cut) => ({ ...apps.find((a) => a.id === id)!, cutOff: cut }));
    mocked.connectApps.mockResolvedValue([status('qwen', 'Qwen Code'), status('codex', 'Codex CLI', { connected: true })]);
  });

  it('lists each app by the name it claims and the launcher the system reported, with its use and the servers it sees', async () => {
    apps = [clientApp({ name: 'evil\u202Eapp', limited: true, servers: ['s2'] })];
    render(ConnectedApps);
    const c = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-app-id="a1"]');
      if (!el) throw new Error('no card yet');
      return el;
    });
    // Claimed text is shown as text, its invisible characters made visible.
    expect(c.querySelector('.hidden-char')).not.toBeNull();
    expect(within(c).getByText('/usr/bin/node')).toBeTruthy();
    expect(within(c).getByText('node /opt/qwen/cli.js')).toBeTruthy();
    expect(within(c).getByText('42')).toBeTruthy();
    expect(within(c).getByText('Started by (as the system reports)')).toBeTruthy();
    const seen = within(within(c).getByRole('group', { name: 'Servers it sees' }));
    await waitFor(() => expect(seen.getByRole('checkbox', { name: 'Files' })).toBeTruthy());
    expect((seen.getByRole('checkbox', { name: 'Files' }) as HTMLInputElement).checked).toBe(false);
    expect((seen.getByRole('checkbox', { name: 'Web' }) as HTMLInputElement).checked).toBe(true);
  });

  it('an app whose launcher is unknown says so', async () => {
    apps = [clientApp({ launcher: '' })];
    render(ConnectedApps);
    const c = await waitFor(() => card('qwen-code'));
    expect(within(c).getByText('unknown')).toBeTruthy();
  });

  it('unticking a server limits the app to the others; ticking it back sees every server again', async () => {
    const user = userEvent.setup();
    render(ConnectedApps);
    const c = await waitFor(() => card('qwen-code'));
    const files = await waitFor(() => within(c).getByRole('checkbox', { name: 'Files' }));
    expect((files as HTMLInputElement).checked).toBe(true);
    await user.click(files);
    await waitFor(() => expect(mocked.updateClientApp).toHaveBeenCalledTimes(1));
    expect(mocked.updateClientApp.mock.calls[0][0]).toMatchObject({ id: 'a1', limited: true, servers: ['s2'] });
    await waitFor(() => expect(savedNote('app:a1:server:s1')).toBe('Saved.'));
    await user.click(within(c).getByRole('checkbox', { name: 'Files' }));
    await waitFor(() => expect(mocked.updateClientApp).toHaveBeenCalledTimes(2));
    expect(mocked.updateClientApp.mock.calls[1][0]).toMatchObject({ limited: false, servers: [] });
  });

  it('sets the app’s own mode for a tool and for a whole server over the chat’s, and back to the chat’s', async () => {
    const user = userEvent.setup();
    apps = [clientApp({ tools: [{ serverId: 's1', tool: 'delete_file', mode: 'deny' }] })];
    render(ConnectedApps);
    const c = await waitFor(() => card('qwen-code'));
    await user.click(within(c).getByText('Its own tool permissions'));
    const read = (await waitFor(() => within(c).getByRole('combobox', { name: 'Setting for read_file in qwen-code' }))) as HTMLSelectElement;
    // The chat allows read_file: "same as the chat" says which; what a call from the app does is Go's.
    expect(read.value).toBe('default');
    expect(read.selectedOptions[0].textContent).toBe('Same as the chat (Allow)');
    const row = (name: string) => within(c).getByRole('combobox', { name: `Setting for ${name} in qwen-code` }).closest('li')!;
    expect(within(row('delete_file')).getByText('For this app now: Deny')).toBeTruthy();
    expect(within(row('write_file')).getByRole('note').textContent).toBe('Changed since you allowed it: its next call asks you again.');
    expect(within(row('write_file')).getByText('For this app now: Ask')).toBeTruthy();
    const asked = mocked.clientAppPermissions.mock.calls.length;
    await user.selectOptions(read, 'ask');
    await waitFor(() => expect(mocked.updateClientApp).toHaveBeenCalledTimes(1));
    expect(mocked.updateClientApp.mock.calls[0][0].tools).toEqual([
      { serverId: 's1', tool: 'delete_file', mode: 'deny' },
      { serverId: 's1', tool: 'read_file', mode: 'ask' },
    ]);
    // After a change, Go says again what each call does.
    await waitFor(() => expect(mocked.clientAppPermissions.mock.calls.length).toBeGreaterThan(asked));
    const del = within(c).getByRole('combobox', { name: 'Setting for delete_file in qwen-code' }) as HTMLSelectElement;
    expect(del.value).toBe('deny');
    await user.selectOptions(del, 'default');
    await waitFor(() => expect(mocked.updateClientApp).toHaveBeenCalledTimes(2));
    expect(mocked.updateClientApp.mock.calls[1][0].tools).toEqual([{ serverId: 's1', tool: 'read_file', mode: 'ask' }]);
    const web = within(c).getByRole('combobox', { name: 'Setting for every tool of Web in qwen-code' });
    await user.selectOptions(web, 'allow');
    await waitFor(() => expect(mocked.updateClientApp).toHaveBeenCalledTimes(3));
    expect(mocked.updateClientApp.mock.calls[2][0].tools).toContainEqual({ serverId: 's2', tool: '', mode: 'allow' });
  });

  it('cuts an app off and allows it again; a refusal is shown as Go’s sentence', async () => {
    const user = userEvent.setup();
    render(ConnectedApps);
    const c = await waitFor(() => card('qwen-code'));
    await user.click(within(c).getByRole('button', { name: 'Cut off' }));
    await waitFor(() => expect(mocked.cutOffClientApp).toHaveBeenCalledWith('a1', true));
    await waitFor(() => expect(within(card('qwen-code')).getByText('Cut off: its requests are refused.')).toBeTruthy());
    const said = { key: 'settings.apps.loadFailed', args: { detail: 'disk full' }, text: 'x' };
    mocked.cutOffClientApp.mockRejectedValueOnce(new api.GoError(said, said.text));
    await user.click(within(card('qwen-code')).getByRole('button', { name: 'Allow again' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Cannot change qwen-code: Cannot read the connected apps: disk full'));
  });

  it('forgets an app only after its confirmation', async () => {
    const user = userEvent.setup();
    render(ConnectedApps);
    const c = await waitFor(() => card('qwen-code'));
    await user.click(within(c).getByRole('button', { name: 'Forget' }));
    const dlg = await screen.findByRole('dialog', { name: 'Forget qwen-code?' });
    expect(mocked.forgetClientApp).not.toHaveBeenCalled();
    apps = [];
    await user.click(within(dlg).getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(mocked.forgetClientApp).toHaveBeenCalledWith('a1'));
    await waitFor(() => expect(screen.getByText(/No app has used the gateway yet/)).toBeTruthy());
  });

  it('follows Go’s records live: an app that connects appears, its calls and last use change, without a reload', async () => {
    let changed: ((id: string) => void) | undefined;
    mocked.onClientAppsChanged.mockImplementation((cb) => {
      changed = cb;
      return () => (changed = undefined);
    });
    apps = [];
    const view = render(ConnectedApps);
    await waitFor(() => expect(screen.getByText(/No app has used the gateway yet/)).toBeTruthy());
    expect(changed).toBeDefined();

    apps = [clientApp({ calls: 0 })];
    changed!('a1');
    const c = await waitFor(() => card('qwen-code'));
    expect(within(c).getByText('0')).toBeTruthy();
    expect(screen.queryByText(/No app has used the gateway yet/)).toBeNull();
    await waitFor(() => expect(mocked.clientAppPermissions).toHaveBeenCalledWith('a1'));

    const asked = mocked.clientAppPermissions.mock.calls.length;
    apps = [clientApp({ calls: 3, lastSeen: '2026-11-27T09:15:00Z' })];
    changed!('a1');
    await waitFor(() => expect(within(card('qwen-code')).getByText('3')).toBeTruthy());
    // A known app's permissions are not read again for a count.
    expect(mocked.clientAppPermissions.mock.calls.length).toBe(asked);

    view.unmount();
    expect(changed).toBeUndefined();
  });

  it('Connect shows the change as Go’s diff, as text, with the backup note; Confirm writes what was shown', async () => {
    const user = userEvent.setup();
    mocked.previewConnect.mockResolvedValue(preview());
    mocked.connectApp.mockResolvedValue({ file: '/home/p/.qwen/settings.json', backup: '/data/connect-backups/qwen-1.json', created: false, removed: [] });
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Connect Qwen Code' }));
    const dlg = await screen.findByRole('dialog', { name: 'Connect Qwen Code to Gatehouse' });
    const pre = await waitFor(() => within(dlg).getByTestId('connect-diff'));
    expect(pre.textContent).toBe(diff);
    expect(pre.querySelector('b')).toBeNull();
    expect(pre.getAttribute('tabindex')).toBe('0');
    expect(within(dlg).getByText(/keeps a copy of the file as it is now/)).toBeTruthy();
    expect(mocked.previewConnect).toHaveBeenCalledWith({ app: 'qwen', replace: false, digest: '', result: '' });
    // The dialog starts on Cancel.
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(mocked.connectApp).not.toHaveBeenCalled();
    await user.click(within(dlg).getByRole('button', { name: 'Change the file' }));
    await waitFor(() => expect(mocked.connectApp).toHaveBeenCalledWith({ app: 'qwen', replace: false, digest: 'd1', result: 'r1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('connect-done').textContent).toBe(
      'Connected Qwen Code: /home/p/.qwen/settings.json changed. The copy of the file as it was: /data/connect-backups/qwen-1.json',
    );
    expect(mocked.connectApps).toHaveBeenCalledTimes(2);
  });

  it('the replace option asks for its own preview, and Confirm writes that one', async () => {
    const user = userEvent.setup();
    mocked.previewConnect.mockImplementation(async (req) =>
      req.replace ? preview({ removed: ['files'], kept: ['own'], digest: 'd1', result: 'r2', diff: '-  "files": {}\n' }) : preview(),
    );
    mocked.connectApp.mockResolvedValue({ file: 'f', backup: 'b', created: false, removed: ['files'] });
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Connect Qwen Code' }));
    const dlg = await screen.findByRole('dialog');
    await waitFor(() => within(dlg).getByTestId('connect-diff'));
    await user.click(within(dlg).getByRole('checkbox', { name: 'Also take out the servers Gatehouse already has' }));
    await waitFor(() => expect(within(dlg).getByText('Taken out: files')).toBeTruthy());
    expect(within(dlg).getByText('Left in the file: own')).toBeTruthy();
    expect(within(dlg).getByTestId('connect-diff').textContent).toBe('-  "files": {}\n');
    await user.click(within(dlg).getByRole('button', { name: 'Change the file' }));
    await waitFor(() => expect(mocked.connectApp).toHaveBeenCalledWith({ app: 'qwen', replace: true, digest: 'd1', result: 'r2' }));
  });

  it('Cancel and Escape write nothing', async () => {
    const user = userEvent.setup();
    mocked.previewConnect.mockResolvedValue(preview());
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Connect Qwen Code' }));
    let dlg = await screen.findByRole('dialog');
    await waitFor(() => within(dlg).getByTestId('connect-diff'));
    await user.click(within(dlg).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Connect Qwen Code' }));
    dlg = await screen.findByRole('dialog');
    await waitFor(() => within(dlg).getByTestId('connect-diff'));
    // Enter on the focused option does not confirm either.
    within(dlg).getByRole('checkbox').focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mocked.connectApp).not.toHaveBeenCalled();
    expect(mocked.undoConnect).not.toHaveBeenCalled();
  });

  it('shows Go’s refusal of the preview and of the write, over a fresh preview; nothing to do is said and not confirmable', async () => {
    const user = userEvent.setup();
    const broken = { key: 'connect.error.cannotEdit', args: { file: '/home/p/.qwen/settings.json', detail: 'It cannot be read: line 2' }, text: 'x' };
    mocked.previewConnect.mockRejectedValueOnce(new api.GoError(broken, broken.text));
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Connect Qwen Code' }));
    let dlg = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(within(dlg).getByRole('alert').textContent).toBe(
        'Gatehouse cannot change /home/p/.qwen/settings.json and leaves it as it is: It cannot be read: line 2',
      ),
    );
    expect((within(dlg).getByRole('button', { name: 'Change the file' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dlg).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const changed = { key: 'connect.error.changed', args: { file: '/home/p/.qwen/settings.json' }, text: 'x' };
    mocked.previewConnect.mockResolvedValueOnce(preview()).mockResolvedValueOnce(preview({ digest: 'd2', result: 'r3' }));
    mocked.connectApp.mockRejectedValueOnce(new api.GoError(changed, changed.text));
    await user.click(screen.getByRole('button', { name: 'Connect Qwen Code' }));
    dlg = await screen.findByRole('dialog');
    await waitFor(() => within(dlg).getByTestId('connect-diff'));
    await user.click(within(dlg).getByRole('button', { name: 'Change the file' }));
    await waitFor(() =>
      expect(within(dlg).getByRole('alert').textContent).toBe(
        '/home/p/.qwen/settings.json changed after the preview was made, so nothing was written. Look at the new preview.',
      ),
    );
    await waitFor(() => expect(mocked.previewConnect).toHaveBeenCalledTimes(3));
    mocked.connectApp.mockResolvedValueOnce({ file: 'f', backup: 'b', created: false, removed: [] });
    await user.click(within(dlg).getByRole('button', { name: 'Change the file' }));
    await waitFor(() => expect(mocked.connectApp).toHaveBeenLastCalledWith({ app: 'qwen', replace: false, digest: 'd2', result: 'r3' }));

    mocked.previewConnect.mockResolvedValueOnce(preview({ unchanged: true, diff: '' }));
    await user.click(screen.getByRole('button', { name: 'Connect Codex CLI' }));
    dlg = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dlg).getByText(/is already connected/)).toBeTruthy());
    expect((within(dlg).getByRole('button', { name: 'Change the file' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a file Gatehouse cannot change says why and offers no Connect', async () => {
    const said = { key: 'connect.error.bom', args: { file: '/home/p/.gemini/settings.json' }, text: 'x' };
    mocked.connectApps.mockResolvedValue([status('gemini', 'Gemini CLI', { problem: said })]);
    render(ConnectedApps);
    const row = await waitFor(() => screen.getByRole('listitem', { name: 'Gemini CLI' }));
    expect(within(row).getByRole('note').textContent).toMatch(/^\/home\/p\/\.gemini\/settings\.json starts with a byte order mark/);
    expect((within(row).getByRole('button', { name: 'Connect Gemini CLI' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Undo asks first, then takes the change back; its refusal is Go’s sentence', async () => {
    const user = userEvent.setup();
    mocked.connectApps.mockResolvedValue([status('qwen', 'Qwen Code', { connected: true, canUndo: true, undoTime: '2026-11-26T18:00:00Z' })]);
    mocked.previewUndoConnect.mockResolvedValue(undoPreview({ whole: true, diff: '' }));
    mocked.undoConnect.mockResolvedValueOnce({ file: '/home/p/.qwen/settings.json', removed: false, time: '2026-11-26T18:00:00Z', backup: '', forgotten: false });
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Undo the last change to Qwen Code’s file' }));
    const dlg = await screen.findByRole('dialog', { name: 'Undo the change to Qwen Code’s file?' });
    await waitFor(() => expect(within(dlg).getByText(/puts \/home\/p\/.qwen\/settings.json back as it was before its change of/)).toBeTruthy());
    expect(mocked.undoConnect).not.toHaveBeenCalled();
    await user.click(within(dlg).getByRole('button', { name: 'Undo the change' }));
    await waitFor(() => expect(mocked.undoConnect).toHaveBeenCalledWith('qwen'));
    expect(mocked.undoConnectChanged).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId('connect-done').textContent).toBe('/home/p/.qwen/settings.json is back as it was before Gatehouse changed it.'));

    const said = { key: 'connect.error.changedSince', args: { file: '/home/p/.qwen/settings.json', time: '2026-11-26 18:00:00' }, text: 'x' };
    mocked.undoConnect.mockRejectedValueOnce(new api.GoError(said, said.text));
    await user.click(screen.getByRole('button', { name: 'Undo the last change to Qwen Code’s file' }));
    const again = await screen.findByRole('dialog');
    await waitFor(() => expect(within(again).getByRole('button', { name: 'Undo the change' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(again).getByRole('button', { name: 'Undo the change' }));
    await waitFor(() => expect(within(again).getByRole('alert').textContent).toMatch(/changed after Gatehouse wrote it \(2026-11-26 18:00:00\)/));
  });

  it('Undo of a file the app changed since shows Go’s diff of taking out only Gatehouse’s part, as text, and writes what was shown', async () => {
    const user = userEvent.setup();
    mocked.connectApps.mockResolvedValue([status('codex', 'Codex CLI', { connected: true, canUndo: true, undoTime: '2026-11-26T18:00:00Z' })]);
    const part = '--- /home/p/.codex/config.toml\n+++ /home/p/.codex/config.toml\n@@ -1,4 +1,4 @@\n-[mcp_servers.gatehouse]\n+[mcp_servers.fs]\n<b>not markup</b>\n';
    mocked.previewUndoConnect.mockResolvedValueOnce(undoPreview({ app: 'codex', appName: 'Codex CLI', file: '/home/p/.codex/config.toml', entry: 'gatehouse', restored: ['fs', 'gh'], diff: part }));
    mocked.previewUndoConnect.mockResolvedValueOnce(undoPreview({ app: 'codex', appName: 'Codex CLI', file: '/home/p/.codex/config.toml', entry: 'gatehouse', restored: ['fs', 'gh'], diff: part, digest: 'd2', result: 'r2' }));
    const said = { key: 'connect.error.changed', args: { file: '/home/p/.codex/config.toml' }, text: 'x' };
    mocked.undoConnectChanged.mockRejectedValueOnce(new api.GoError(said, said.text));
    mocked.undoConnectChanged.mockResolvedValueOnce({ file: '/home/p/.codex/config.toml', removed: false, time: '2026-11-26T18:00:00Z', backup: '/data/connect-backups/codex-2.bak', forgotten: false });
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Undo the last change to Codex CLI’s file' }));
    const dlg = await screen.findByRole('dialog', { name: 'Undo the change to Codex CLI’s file?' });
    const diffBlock = await within(dlg).findByTestId('connect-undo-diff');
    expect(diffBlock.textContent).toBe(part);
    expect(diffBlock.querySelector('b')).toBeNull();
    expect(within(dlg).getByText(/changed after Gatehouse’s change of .*: putting the copy back would lose that/)).toBeTruthy();
    expect(within(dlg).getByText('Taken out: Gatehouse’s entry gatehouse')).toBeTruthy();
    expect(within(dlg).getByText('Put back as they were (Gatehouse had taken them out): fs, gh')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');

    await user.click(within(dlg).getByRole('button', { name: 'Take out Gatehouse’s part' }));
    await waitFor(() => expect(within(dlg).getByRole('alert').textContent).toContain('/home/p/.codex/config.toml'));
    expect(mocked.undoConnectChanged).toHaveBeenLastCalledWith({ app: 'codex', digest: 'd1', result: 'r1' });
    expect(mocked.undoConnect).not.toHaveBeenCalled();
    await waitFor(() => expect(mocked.previewUndoConnect).toHaveBeenCalledTimes(2));
    await user.click(within(dlg).getByRole('button', { name: 'Take out Gatehouse’s part' }));
    await waitFor(() => expect(mocked.undoConnectChanged).toHaveBeenLastCalledWith({ app: 'codex', digest: 'd2', result: 'r2' }));
    await waitFor(() =>
      expect(screen.getByTestId('connect-done').textContent).toBe(
        'Gatehouse took its part out of /home/p/.codex/config.toml. The copy of the file as it was: /data/connect-backups/codex-2.bak',
      ),
    );
  });

  it('Undo when the app took Gatehouse’s entry out itself only forgets the change', async () => {
    const user = userEvent.setup();
    mocked.connectApps.mockResolvedValue([status('qwen', 'Qwen Code', { canUndo: true, undoTime: '2026-11-26T18:00:00Z' })]);
    mocked.previewUndoConnect.mockResolvedValue(undoPreview({ unchanged: true, diff: '' }));
    mocked.undoConnectChanged.mockResolvedValueOnce({ file: '/home/p/.qwen/settings.json', removed: false, time: '2026-11-26T18:00:00Z', backup: '', forgotten: true });
    render(ConnectedApps);
    await user.click(await screen.findByRole('button', { name: 'Undo the last change to Qwen Code’s file' }));
    const dlg = await screen.findByRole('dialog');
    expect(await within(dlg).findByText(/the app took it out\. Gatehouse only forgets the change/)).toBeTruthy();
    await user.click(within(dlg).getByRole('button', { name: 'Forget the change' }));
    await waitFor(() => expect(screen.getByTestId('connect-done').textContent).toBe('Gatehouse forgot its change to /home/p/.qwen/settings.json; the file was not written.'));
  });
});
