// Component tests of the tools pane. api.ts is mocked: these tests check the
// form the UI builds from the form Go sends, the values it gives Go to check,
// and that it sends what Go made of them. Go's own verdicts are tested in Go
// (forms/, app/) and end to end in e2e/.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import { servers } from '../../lib/servers.svelte';
import { tools } from '../../lib/tools.svelte';
import ToolRunner from './ToolRunner.svelte';
import { field, msg, result, server, tool, type TestTool } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const everyKind = tool('book', {
  title: 'Book a room',
  description: 'Books a meeting room <b>now</b>.',
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  form: {
    complete: true,
    secretFields: [],
    fields: [
      field('title', 'text', { label: 'Title', required: true, description: 'What the meeting is about' }),
      field('email', 'email', { label: 'Organizer email' }),
      field('link', 'uri', { label: 'Agenda link' }),
      field('day', 'date', { label: 'Day' }),
      field('start', 'date-time', { label: 'Start' }),
      field('hours', 'number', { label: 'Hours' }),
      field('people', 'integer', { label: 'People', minimum: 1, hints: [msg('A whole number.'), msg('1 or more.')] }),
      field('video', 'boolean', { label: 'Video call' }),
      field('room', 'single-select', {
        label: 'Room',
        options: [
          { value: 'oak', label: 'Oak room' },
          { value: 'elm', label: 'Elm room' },
        ],
      }),
      field('floor', 'single-select', {
        label: 'Floor',
        options: ['1', '2', '3', '4', '5', '6'].map((v) => ({ value: v, label: `Floor ${v}` })),
      }),
      field('extras', 'multi-select', {
        label: 'Extras',
        options: [
          { value: 'coffee', label: 'Coffee' },
          { value: 'cake', label: 'Cake' },
          { value: 'board', label: 'Whiteboard' },
        ],
      }),
      field('meta', 'json', { label: 'Metadata' }),
    ],
  },
});

const jsonOnly = tool('complex', {
  form: {
    complete: false,
    reason: msg("The tool's input schema uses oneOf, which a form cannot show."),
    fields: [],
    secretFields: [],
  },
  inputSchema: '{\n  "oneOf": []\n}',
});

async function openTool(title: string) {
  const user = userEvent.setup();
  render(ToolRunner);
  await user.click(await screen.findByRole('button', { name: new RegExp(title) }));
  return user;
}

function sentArgs(): unknown {
  const [, serverID, toolName, argsJSON] = mocked.callTool.mock.calls.at(-1)!;
  expect(serverID).toBe('s1');
  void toolName;
  return JSON.parse(argsJSON);
}

describe('ToolRunner', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    tools.reset();
    servers.set([server('s1', 'Demo'), server('s2', 'Broken', { state: 'error', message: msg('exit status 1') })]);
    mocked.listTools.mockResolvedValue([everyKind, jsonOnly]);
    // Go gives a tool's form when it is opened: the one of the tool in the last list given.
    mocked.toolForm.mockImplementation(async (_server, name) => {
      const list = (await mocked.listTools.mock.results.at(-1)?.value) as TestTool[];
      const { form, inputSchema, schemaId } = list.find((x) => x.name === name)!;
      return { form, inputSchema, schemaId };
    });
    mocked.callTool.mockResolvedValue(result({ content: [{ type: 'text', text: 'booked', mimeType: '', data: '', uri: '', name: '', title: '' }] }));
  });

  it("marks the characters a person cannot see in a tool's title, name and description (issue 22)", async () => {
    mocked.listTools.mockResolvedValue([tool('send\u200B', { title: 'Send\u202E', description: 'Pays\u2028now' })]);
    const user = userEvent.setup();
    render(ToolRunner);
    const item = await screen.findByRole('button', { name: /Send/ });
    expect(item.textContent).not.toMatch(/[\u202E\u200B\u2028]/);
    expect([...item.querySelectorAll('.hidden-char')].map((m) => m.textContent)).toEqual(['U+202E', 'U+200B', 'U+2028']);
    await user.click(item);
    const heading = await screen.findByRole('heading', { name: /Send/ });
    expect(heading.textContent).toBe('SendU+202E');
  });

  it('lists the tools of the first connected server with their hints, as text', async () => {
    render(ToolRunner);
    const item = await screen.findByRole('button', { name: /Book a room/ });
    expect(item.textContent).toContain('Books a meeting room <b>now</b>.');
    expect(document.querySelector('b')).toBeNull();
    await userEvent.setup().click(item);
    const hints = screen.getByLabelText('Hints the server claims');
    expect(within(hints).getByText('destructive')).toBeTruthy();
    expect(within(hints).getByText('idempotent')).toBeTruthy();
    expect(within(hints).queryByText('read-only')).toBeNull();
    expect(mocked.listTools).toHaveBeenCalledWith('s1');
  });

  it('builds one control per field kind', async () => {
    await openTool('Book a room');
    const byLabel = (l: string) => screen.getByLabelText(new RegExp(`^${l}\\s*\\*?$`)) as HTMLInputElement;
    const cases: [string, string, string][] = [
      ['Title', 'INPUT', 'text'],
      ['Organizer email', 'INPUT', 'email'],
      ['Agenda link', 'INPUT', 'url'],
      ['Day', 'INPUT', 'date'],
      ['Start', 'INPUT', 'datetime-local'],
      ['Hours', 'INPUT', 'number'],
      ['People', 'INPUT', 'number'],
      ['Video call', 'INPUT', 'checkbox'],
      ['Floor', 'SELECT', 'select-one'],
      ['Metadata', 'TEXTAREA', 'textarea'],
    ];
    for (const [label, tag, type] of cases) {
      const el = byLabel(label);
      expect(el.tagName, label).toBe(tag);
      expect(el.type, label).toBe(type);
    }
    expect(byLabel('People').step).toBe('1');
    expect(byLabel('Video call').getAttribute('role')).toBe('switch');
    // Few options are radio buttons; many (Floor) a list box.
    const room = screen.getByRole('radiogroup', { name: 'Room' });
    expect(within(room).getAllByRole('radio').map((r) => r.parentElement?.textContent?.trim())).toEqual([
      'Oak room',
      'Elm room',
    ]);
    const extras = screen.getByRole('group', { name: 'Extras' });
    expect(within(extras).getAllByRole('checkbox').map((c) => c.parentElement?.textContent?.trim())).toEqual([
      'Coffee',
      'Cake',
      'Whiteboard',
    ]);
    expect(screen.getByText('What the meeting is about')).toBeTruthy();
  });

  it('gives Go the values typed by kind, and sends the arguments Go made of them', async () => {
    const fromGo = { title: 'Planning', day: '2026-11-23', hours: 1.5, people: 4, video: true, room: 'elm', meta: { n: 2 } };
    mocked.checkArguments.mockResolvedValue({ arguments: fromGo, errors: {} });
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText(/^Title/), 'Planning');
    await fireEvent.input(screen.getByLabelText('Day'), { target: { value: '2026-11-23' } });
    await user.type(screen.getByLabelText('Hours'), '1.5');
    await user.type(screen.getByLabelText('People'), '4');
    await user.click(screen.getByLabelText('Video call'));
    await user.click(screen.getByLabelText('Elm room'));
    await user.click(screen.getByLabelText('Coffee'));
    await user.click(screen.getByLabelText('Whiteboard'));
    await fireEvent.input(screen.getByLabelText('Metadata'), { target: { value: '{"n": 2}' } });
    await user.click(screen.getByRole('button', { name: 'Call' }));

    await waitFor(() => expect(mocked.callTool).toHaveBeenCalledTimes(1));
    const [serverID, toolName, values] = mocked.checkArguments.mock.calls.at(-1)!;
    expect([serverID, toolName]).toEqual(['s1', 'book']);
    expect(values).toEqual({
      title: 'Planning',
      email: '',
      link: '',
      day: '2026-11-23',
      start: '',
      hours: 1.5,
      people: 4,
      video: true,
      room: 'elm',
      floor: '',
      extras: ['coffee', 'board'],
      meta: '{"n": 2}',
    });
    expect(sentArgs()).toEqual(fromGo);
    expect(await screen.findByText('booked')).toBeTruthy();
  });

  it('writes what each field accepts, in Go’s words', async () => {
    await openTool('Book a room');
    expect(screen.getByText('1 or more.')).toBeTruthy();
    expect(screen.getByText('A whole number.')).toBeTruthy();
  });

  it('does not call while Go finds a field wrong, and shows why beside it', async () => {
    mocked.checkArguments.mockResolvedValue({
      arguments: { people: 0 },
      errors: { title: msg('This field is required.'), people: msg('Enter 1 or more.') },
    });
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText('People'), '0');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(screen.getByText('Enter 1 or more.')).toBeTruthy();
    expect(screen.getByLabelText('People').getAttribute('aria-invalid')).toBe('true');
    expect(mocked.callTool).not.toHaveBeenCalled();
  });

  it('checks as the person types, showing errors only for touched fields', async () => {
    mocked.checkArguments.mockResolvedValue({
      arguments: {},
      errors: { title: msg('This field is required.'), people: msg('Enter 1 or more.') },
    });
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText('People'), '0');
    expect(await screen.findByText('Enter 1 or more.')).toBeTruthy();
    expect(screen.queryByText('This field is required.')).toBeNull();
  });

  it('the JSON tab starts from what Go made of the form and sends what is written there', async () => {
    mocked.checkArguments.mockResolvedValue({ arguments: { title: 'X' }, errors: {} });
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText(/^Title/), 'X');
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const editor = (await screen.findByLabelText('Arguments (JSON object)')) as HTMLTextAreaElement;
    await waitFor(() => expect(JSON.parse(editor.value)).toEqual({ title: 'X' }));
    // The schema shown beside the editor is the one Go sent with the form.
    expect(screen.getByText('Input schema').closest('details')?.querySelector('pre')?.textContent).toBe(everyKind.inputSchema);
    await fireEvent.input(editor, { target: { value: '{"title": "Y", "people": 3}' } });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    await waitFor(() => expect(mocked.callTool).toHaveBeenCalled());
    expect(mocked.callTool.mock.calls[0][3]).toBe('{"title": "Y", "people": 3}');
  });

  it('offers only the JSON editor, with the reason, when the form is incomplete', async () => {
    await openTool('complex');
    expect(screen.queryByRole('tablist', { name: 'How to enter the arguments' })).toBeNull();
    expect(screen.getByText(/uses oneOf, which a form cannot show/)).toBeTruthy();
  });

  it('shows why Go refused the arguments: nothing was sent', async () => {
    mocked.callTool.mockResolvedValue(
      result({
        argumentErrors: {
          '': msg('The arguments must be a JSON object, like {"name": "value"}.'),
          days: msg('Enter a whole number.'),
        },
      }),
    );
    const user = await openTool('complex');
    const editor = screen.getByLabelText('Arguments (JSON object)');
    await fireEvent.input(editor, { target: { value: '[1]' } });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    const list = await waitFor(() => {
      const el = document.getElementById(editor.getAttribute('aria-describedby') ?? '');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(list.textContent).toContain('The arguments must be a JSON object');
    expect(list.textContent).toContain('days: Enter a whole number.');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/Nothing was sent/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Result/ })).toBeNull();
    // Editing the arguments puts the old verdict away.
    await fireEvent.input(editor, { target: { value: '{}' } });
    expect(screen.queryByText(/days: Enter a whole number/)).toBeNull();
  });

  it('Cancel asks Go to cancel the running call by its ID', async () => {
    let finish: (e: unknown) => void = () => {};
    mocked.callTool.mockImplementation(() => new Promise((_, reject) => (finish = reject)));
    const user = await openTool('complex');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    expect((screen.getByRole('button', { name: 'Calling…' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(cancel);
    const callID = mocked.callTool.mock.calls[0][0];
    expect(mocked.cancelCall).toHaveBeenCalledWith(callID);
    finish(new Error('context canceled'));
    expect(await screen.findByText('The call was cancelled.')).toBeTruthy();
  });

  it('explains a call that failed', async () => {
    mocked.callTool.mockRejectedValue(new Error('the server is not connected'));
    const user = await openTool('complex');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('The call failed: the server is not connected')).toBeTruthy();
  });

  it('switching to another tool and back keeps what was typed in each', async () => {
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText(/^Title/), 'Planning');
    await user.click(screen.getByRole('button', { name: /complex/ }));
    await fireEvent.input(screen.getByLabelText('Arguments (JSON object)'), { target: { value: '{"x": 1}' } });
    await user.click(screen.getByRole('button', { name: /Book a room/ }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Planning');
    await user.click(screen.getByRole('button', { name: /complex/ }));
    expect((screen.getByLabelText('Arguments (JSON object)') as HTMLTextAreaElement).value).toBe('{"x": 1}');
  });

  it('leaving the pane and coming back keeps the server, the tool, the arguments and the last result', async () => {
    mocked.listTools.mockImplementation(async (id: string) => (id === 's3' ? [everyKind, jsonOnly] : [everyKind]));
    servers.set([server('s1', 'Demo'), server('s3', 'Other')]);
    const user = userEvent.setup();
    const pane = render(ToolRunner);
    await user.selectOptions(screen.getByLabelText('Server'), 's3');
    await user.click(await screen.findByRole('button', { name: /complex/ }));
    await fireEvent.input(screen.getByLabelText('Arguments (JSON object)'), { target: { value: '{"x": 1}' } });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('booked')).toBeTruthy();
    pane.unmount();

    render(ToolRunner);
    expect((screen.getByLabelText('Server') as HTMLSelectElement).value).toBe('s3');
    expect(screen.getByRole('button', { name: /complex/ }).getAttribute('aria-current')).toBe('true');
    expect((screen.getByLabelText('Arguments (JSON object)') as HTMLTextAreaElement).value).toBe('{"x": 1}');
    expect(screen.getByText('booked')).toBeTruthy();
  });

  it('a tool the server stops listing no longer shows its form', async () => {
    let listChanged: (id: string) => void = () => {};
    mocked.onToolsChanged.mockImplementation((cb) => {
      listChanged = cb;
      return () => {};
    });
    const stop = tools.start();
    const user = await openTool('Book a room');
    await user.type(screen.getByLabelText(/^Title/), 'Planning');
    mocked.listTools.mockResolvedValue([jsonOnly]);
    listChanged('s1');
    expect(await screen.findByText('Choose a tool to call it.')).toBeTruthy();
    expect(screen.queryByLabelText(/^Title/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Book a room/ })).toBeNull();
    // Listed again, it starts with nothing typed.
    mocked.listTools.mockResolvedValue([everyKind, jsonOnly]);
    listChanged('s1');
    await user.click(await screen.findByRole('button', { name: /Book a room/ }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('');
    stop();
  });

  it('the filter narrows the list, counts what it shows, says when nothing matches, and Escape clears it', async () => {
    mocked.listTools.mockResolvedValue([everyKind, jsonOnly, tool('weather', { description: 'The forecast for a city' })]);
    const user = userEvent.setup();
    render(ToolRunner);
    const filter = await screen.findByRole('searchbox', { name: 'Filter the tools of Demo' });
    expect(screen.getByRole('status').textContent).toBe('3 tools');
    await user.type(filter, 'city');
    expect(screen.getAllByRole('button', { name: /./ }).filter((b) => b.dataset.tool).map((b) => b.dataset.tool)).toEqual(['weather']);
    expect(screen.getByRole('status').textContent).toBe('1 of 3 tools');
    await user.type(filter, 'x');
    expect(screen.getByText('No tool matches “cityx”.')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect((filter as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('3 tools');
    // The list is one tab stop; arrow keys move inside it.
    await user.tab();
    expect(document.activeElement?.getAttribute('data-tool')).toBe('book');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('data-tool')).toBe('complex');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(filter);
    // Enter shows the first tool that matches.
    await user.type(filter, 'meeting{Enter}');
    expect(screen.getByRole('heading', { level: 2, name: 'Book a room' })).toBeTruthy();
  });

  it("switching servers shows each server's own filter, not the last one's (\"0 of 2 tools\", issue 26)", async () => {
    mocked.listTools.mockImplementation(async (id: string) => (id === 's3' ? [everyKind, jsonOnly] : [everyKind, jsonOnly, tool('weather')]));
    servers.set([server('s1', 'Demo'), server('s3', 'Other')]);
    const user = userEvent.setup();
    render(ToolRunner);
    await user.type(await screen.findByRole('searchbox', { name: 'Filter the tools of Demo' }), 'weather');
    expect(screen.getByRole('status').textContent).toBe('1 of 3 tools');

    await user.selectOptions(screen.getByLabelText('Server'), 's3');
    const other = await screen.findByRole('searchbox', { name: 'Filter the tools of Other' });
    expect((other as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('2 tools');
    expect(screen.getByRole('button', { name: /complex/ })).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Server'), 's1');
    const demo = await screen.findByRole('searchbox', { name: 'Filter the tools of Demo' });
    expect((demo as HTMLInputElement).value).toBe('weather');
    expect(screen.getByRole('status').textContent).toBe('1 of 3 tools');
  });

  it('a server that is not connected says why instead of listing tools', async () => {
    const user = userEvent.setup();
    render(ToolRunner);
    await user.selectOptions(screen.getByLabelText('Server'), 's2');
    expect(screen.getByText(/Broken is error/)).toBeTruthy();
    expect(screen.getByText('exit status 1')).toBeTruthy();
  });

  it("says why a tool's form could not be had, and offers no call without it", async () => {
    mocked.toolForm.mockRejectedValue(new Error('the server is not connected'));
    await openTool('Book a room');
    expect((await screen.findByRole('alert')).textContent).toContain('the server is not connected');
    expect(screen.queryByRole('button', { name: 'Call' })).toBeNull();
  });

  it('draws the first rows of a long list, and the rest as the keys move toward its end', async () => {
    const many = Array.from({ length: 300 }, (_, i) => tool(`lookup_${String(i).padStart(3, '0')}`));
    mocked.listTools.mockResolvedValue(many);
    render(ToolRunner);
    await waitFor(() => expect(document.querySelector('[data-tool="lookup_000"]')).toBeTruthy());
    expect(document.querySelectorAll('button.tool-item').length).toBeLessThan(300);
    expect(screen.getByText('300 tools')).toBeTruthy();
    const first = document.querySelector<HTMLElement>('[data-tool="lookup_000"]')!;
    first.focus();
    await fireEvent.keyDown(first, { key: 'End' });
    await waitFor(() => expect(document.activeElement?.getAttribute('data-tool')).toBe('lookup_299'));
    expect(document.querySelectorAll('button.tool-item').length).toBe(300);
  });
});
