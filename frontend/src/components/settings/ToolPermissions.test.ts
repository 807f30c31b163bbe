// Component tests of Settings → Tool permissions. api.ts is mocked; Go's
// side (and that the chat obeys these settings) is tested in
// app/policies_test.go, the whole path in e2e/permissions.test.mjs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ServerPolicyView, ToolPolicyView } from '../../lib/api';
import ToolPermissions from './ToolPermissions.svelte';
import { savedMark } from '../../lib/saved.svelte';
import { description, savedNote } from '../../test/saved-note';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const noHints = { readOnly: false, destructive: false, idempotent: false, openWorld: false };

function tool(name: string, over: Partial<ToolPolicyView> = {}): ToolPolicyView {
  return {
    name,
    title: name,
    hints: noHints,
    offered: true,
    mode: 'default',
    effective: 'ask',
    why: { key: '', args: {}, text: '' },
    held: false,
    ...over,
  };
}

function serverPolicy(id: string, name: string, over: Partial<ServerPolicyView> = {}): ServerPolicyView {
  return {
    serverId: id,
    serverName: name,
    connected: true,
    mode: 'ask',
    trusted: false,
    requests: 'ask',
    mutedUntil: '',
    tools: [],
    ...over,
  };
}

function card(name: string) {
  return screen.getByRole('listitem', { name });
}

function toolRow(server: string, name: string) {
  return within(card(server)).getByRole('listitem', { name });
}

/** A choice (radio button) of one of a server's questions, by the question and the choice. */
function choice(server: string, question: string, name: string) {
  return within(within(card(server)).getByRole('group', { name: question })).getByRole('radio', { name }) as HTMLInputElement;
}

describe('ToolPermissions', () => {
  let list: ServerPolicyView[];

  beforeEach(() => {
    vi.clearAllMocks();
    savedMark.clear();
    list = [
      serverPolicy('s1', 'Files', {
        trusted: true,
        tools: [
          tool('read_file', { title: 'Read a file', hints: { ...noHints, readOnly: true }, effective: 'allow' }),
          tool('delete_file', { hints: { ...noHints, destructive: true } }),
          tool('old_tool', { offered: false, mode: 'allow', effective: 'allow' }),
        ],
      }),
      serverPolicy('s2', 'Remote', { connected: false, requests: 'mute', mutedUntil: '2026-11-22T12:00:00Z' }),
    ];
    mocked.listPolicies.mockImplementation(async () => list);
  });

  it('shows per server its tool-call mode, trust, request policy, and each tool with its claims and setting', async () => {
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });

    const files = card('Files');
    expect(choice('Files', 'When the model calls a tool', 'Ask each time').checked).toBe(true);
    expect((within(files).getByRole('switch', { name: "Trust this server's read-only claims" }) as HTMLInputElement).checked).toBe(true);
    expect(within(files).getByText(/the tools it calls read-only run without asking/)).toBeTruthy();
    expect(choice('Files', 'When the server asks you something', 'Ask me').checked).toBe(true);

    const read = toolRow('Files', 'read_file');
    expect(within(read).getByText('Read a file')).toBeTruthy();
    expect(within(read).getByText('read-only')).toBeTruthy();
    expect(within(read).getByText(/Runs without asking/)).toBeTruthy();
    expect((within(read).getByLabelText('Setting for read_file') as HTMLSelectElement).value).toBe('default');
    expect(within(read).getByRole('option', { name: 'Same as server (Ask)' })).toBeTruthy();
    expect(within(toolRow('Files', 'delete_file')).getByText('destructive')).toBeTruthy();

    const remote = card('Remote');
    expect(within(remote).getByText(/Muted until/)).toBeTruthy();
    expect(within(remote).getByText(/not connected/)).toBeTruthy();
  });

  it('changes what the server, its trust, a tool and its requests do, then reads them again', async () => {
    const user = userEvent.setup();
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    const files = card('Files');
    const reads = mocked.listPolicies.mock.calls.length;

    await user.click(choice('Files', 'When the model calls a tool', 'Deny'));
    expect(mocked.setToolCallMode).toHaveBeenCalledWith('s1', 'deny');

    await user.click(within(files).getByRole('switch', { name: "Trust this server's read-only claims" }));
    expect(mocked.setTrusted).toHaveBeenCalledWith('s1', false);

    await user.selectOptions(within(toolRow('Files', 'delete_file')).getByLabelText('Setting for delete_file'), 'deny');
    expect(mocked.setToolMode).toHaveBeenCalledWith('s1', 'delete_file', 'deny');

    await user.click(choice('Files', 'When the server asks you something', 'Decline without asking'));
    expect(mocked.setRequestPolicy).toHaveBeenCalledWith('s1', 'decline');

    await user.click(within(card('Remote')).getByRole('button', { name: 'Unmute' }));
    expect(mocked.setRequestPolicy).toHaveBeenCalledWith('s2', 'ask');
    await waitFor(() => expect(mocked.listPolicies.mock.calls.length).toBeGreaterThan(reads));
  });

  it.each([
    { question: 'When the model calls a tool', name: 'Ask each time', says: /The next call waits for you: a dialog shows the tool and its arguments/ },
    { question: 'When the model calls a tool', name: 'Allow without asking', says: /The next call runs at once, without a dialog/ },
    { question: 'When the model calls a tool', name: 'Deny', says: /The next call is not made: the model is told that your settings do not allow it/ },
    { question: 'When the server asks you something', name: 'Ask me', says: /The next one opens a dialog/ },
    { question: 'When the server asks you something', name: 'Decline without asking', says: /The server is told no at once and you see nothing/ },
  ])('the choice “$name” says what happens next', async ({ question, name, says }) => {
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    const radio = choice('Files', question, name);
    expect(description(radio)).toMatch(says);
  });

  it('the choices of a tool’s own setting say what each does', async () => {
    render(ToolPermissions);
    const text = screen.getByText("A tool's own setting").parentElement?.textContent ?? '';
    expect(text).toMatch(/Same as server.*The server's setting below decides\./);
    expect(text).toMatch(/Ask each time.*Asks even when the server is set to allow or you trust it/);
    expect(text).toMatch(/Allow.*Runs without asking, whatever the server's setting\./);
    expect(text).toMatch(/Deny.*Never runs, not even in a conversation where you allowed it before\./);
  });

  it('a stored change says Saved next to the control it was made with, and only there', async () => {
    const user = userEvent.setup();
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    await user.click(choice('Files', 'When the model calls a tool', 'Allow without asking'));
    await waitFor(() => expect(savedNote('s1:mode:allow')).toBe('Saved.'));
    expect(savedNote('s1:mode:deny')).toBe('');

    await user.selectOptions(within(toolRow('Files', 'delete_file')).getByLabelText('Setting for delete_file'), 'deny');
    await waitFor(() => expect(savedNote('s1:tool:delete_file')).toBe('Saved.'));
    expect(savedNote('s1:mode:allow')).toBe('');
    expect(within(toolRow('Files', 'delete_file')).getByRole('status').getAttribute('aria-live')).toBe('polite');
  });

  it('a refused change says no Saved', async () => {
    const user = userEvent.setup();
    mocked.setTrusted.mockRejectedValueOnce(new Error('the data file is read-only'));
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    await user.click(within(card('Files')).getByRole('switch', { name: "Trust this server's read-only claims" }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/the data file is read-only/);
    expect(savedNote('s1:trust')).toBe('');
  });

  it('warns when a tool the server calls destructive runs without asking', async () => {
    list[0].tools[1] = tool('delete_file', { hints: { ...noHints, destructive: true }, mode: 'allow', effective: 'allow' });
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    expect(within(toolRow('Files', 'delete_file')).getByRole('note').textContent).toMatch(
      /may delete or overwrite things, and it runs without asking/,
    );
    expect(within(toolRow('Files', 'read_file')).queryByRole('note')).toBeNull();
  });

  it('says when an Always allow is held because the tool changed since', async () => {
    list[0].tools[1] = tool('delete_file', { mode: 'allow', effective: 'ask', held: true });
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    expect(within(toolRow('Files', 'delete_file')).getByRole('note').textContent).toBe(
      'Changed since you allowed it: its next call asks you again.',
    );
    expect(within(toolRow('Files', 'read_file')).queryByRole('note')).toBeNull();
  });

  it('no warning for a destructive tool that is asked', async () => {
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    expect(within(toolRow('Files', 'delete_file')).queryByRole('note')).toBeNull();
  });

  it('an Always allow for a tool the server no longer offers is listed and can be revoked', async () => {
    const user = userEvent.setup();
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    const others = within(card('Files')).getByRole('list', { name: 'Set for tools this server does not offer now' });
    const old = within(others).getByRole('listitem', { name: 'old_tool' });
    expect((within(old).getByLabelText('Setting for old_tool') as HTMLSelectElement).value).toBe('allow');

    list[0].tools = list[0].tools.filter((t) => t.name !== 'old_tool');
    await user.selectOptions(within(old).getByLabelText('Setting for old_tool'), 'default');
    expect(mocked.setToolMode).toHaveBeenCalledWith('s1', 'old_tool', 'default');
    await waitFor(() => expect(within(card('Files')).queryByRole('listitem', { name: 'old_tool' })).toBeNull());
  });

  it('a server with many tools gets a filter over their names', async () => {
    const user = userEvent.setup();
    list = [
      serverPolicy('s3', 'Big', {
        tools: Array.from({ length: 40 }, (_, i) => tool(i % 2 ? `git_commit_${i}` : `fs_read_${i}`)),
      }),
    ];
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Big' });
    const tools = () => within(within(card('Big')).getByRole('list', { name: 'Tools' })).getAllByRole('listitem');
    expect(tools()).toHaveLength(40);
    await user.type(within(card('Big')).getByRole('searchbox', { name: 'Filter the tools of Big' }), 'GIT_commit_1');
    expect(tools().map((li) => li.getAttribute('aria-label'))).toEqual([
      'git_commit_1',
      'git_commit_11',
      'git_commit_13',
      'git_commit_15',
      'git_commit_17',
      'git_commit_19',
    ]);
  });

  it('a server with few tools has no filter', async () => {
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('shows server and tool names as text, invisible characters made visible', async () => {
    list = [
      serverPolicy('s4', '<b>Evil</b>', {
        tools: [tool('<img src=x onerror=alert(1)>'), tool('rm\u202Eexe.txt')],
      }),
    ];
    const { container } = render(ToolPermissions);
    await screen.findByText('<b>Evil</b>');
    expect(container.querySelector('b, img')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(container.querySelector('.hidden-char')?.getAttribute('title')).toMatch(/right-to-left override/);
  });

  it('Reset asks first, and resets only after the person confirms', async () => {
    const user = userEvent.setup();
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    await user.click(within(card('Files')).getByRole('button', { name: 'Reset to defaults' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset the permissions of Files?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mocked.resetPolicies).not.toHaveBeenCalled();

    await user.click(within(card('Files')).getByRole('button', { name: 'Reset to defaults' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Reset the permissions of Files?' })).getByRole('button', { name: 'Reset' }));
    expect(mocked.resetPolicies).toHaveBeenCalledWith('s1');
  });

  it('a change Go refuses is said in a sentence', async () => {
    const user = userEvent.setup();
    mocked.setToolMode.mockRejectedValueOnce(new Error('no server has the ID "s1"; it may have been removed'));
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    await user.selectOptions(within(toolRow('Files', 'delete_file')).getByLabelText('Setting for delete_file'), 'allow');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not change the permissions of Files: no server has the ID "s1"; it may have been removed',
    );
  });

  it('reads the permissions again when Go says they changed (Always allow in the consent dialog)', async () => {
    let changed: (id: string) => void = () => {};
    mocked.onPoliciesChanged.mockImplementation((cb) => {
      changed = cb;
      return () => {};
    });
    render(ToolPermissions);
    await screen.findByRole('listitem', { name: 'Files' });
    list = [serverPolicy('s1', 'Files', { tools: [tool('delete_file', { mode: 'allow', effective: 'allow' })] })];
    changed('s1');
    await waitFor(() =>
      expect((within(toolRow('Files', 'delete_file')).getByLabelText('Setting for delete_file') as HTMLSelectElement).value).toBe(
        'allow',
      ),
    );
  });
});
