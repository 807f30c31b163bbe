// Component tests of the consent dialog. api.ts is mocked: these tests check
// what the person sees and what the dialog asks Go to do. The real Go broker
// and real servers are exercised by the end-to-end tests in e2e/ and by the
// Go tests of the same service (app/elicitation_test.go).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ConsentDialog from './ConsentDialog.svelte';
import { field, msg, question } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function open(over: Parameters<typeof question>[0] = {}, waiting: api.WaitingView[] = []) {
  const onproblem = vi.fn();
  const onrefuse = vi.fn();
  const user = userEvent.setup();
  const r = render(ConsentDialog, { props: { request: question(over), waiting, onproblem, onrefuse } });
  return { user, onproblem, onrefuse, ...r };
}

/** After an answer was sent the dialog takes no more input; the broker's next snapshot closes it. */
function expectAnswered() {
  expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(true);
}

const registerFields = [
  field('name', 'text', { label: 'Your name', required: true }),
  field('email', 'email', { label: 'Email', required: true }),
  field('age', 'integer', {
    label: 'Age',
    minimum: 0,
    maximum: 150,
    default: 30,
    hints: [msg('A whole number.'), msg('0 to 150.')],
  }),
  field('newsletter', 'boolean', { label: 'Newsletter', default: true }),
  field('plan', 'single-select', {
    label: 'Plan',
    default: 'free',
    options: [
      { value: 'free', label: 'Free' },
      { value: 'pro', label: 'Pro' },
    ],
  }),
];

beforeEach(() => vi.clearAllMocks());

describe('ConsentDialog', () => {
  it('names the configured server first, where it runs, then what it calls itself (E27)', () => {
    open({ serverName: 'My bank helper', selfName: 'Official Bank', where: 'npx bank-mcp' });
    const heading = screen.getByRole('heading');
    expect(heading.textContent).toBe('My bank helper is asking for your input');
    expect(screen.getByText('npx bank-mcp')).toBeTruthy();
    expect(screen.getByText(/calls itself “Official Bank 1.0.0”/)).toBeTruthy();
  });

  it('shows hostile server text as text (E16)', () => {
    const { container } = open({
      message: '<img src=x onerror="window.pwned=1"> ![x](https://evil.example/x.png)\nline two',
      serverName: 'Evil<b>bold</b>',
    });
    expect(container.ownerDocument.querySelector('img')).toBeNull();
    expect(container.ownerDocument.querySelector('b')).toBeNull();
    expect(screen.getByText(/<img src=x onerror/)).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toContain('Evil<b>bold</b>');
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('makes bidi and zero-width characters visible (E16)', () => {
    open({ message: 'Pay to acc\u202Etnuocca\u200B now' });
    const mark = screen.getByText('U+202E');
    expect(mark.className).toContain('hidden-char');
    expect(mark.getAttribute('title')).toContain('right-to-left override');
    expect(screen.getByText('U+200B')).toBeTruthy();
  });

  it("shows the hidden characters of a text field's default under it, and none for plain text (issue 22, item 5)", async () => {
    const { user } = open({ fields: [field('file', 'text', { label: 'File', default: 'invoice\u202Efdp.exe' }), field('note', 'text', { label: 'Note', default: 'plain' })] });
    const notes = screen.getAllByRole('note');
    expect(notes).toHaveLength(1);
    expect(notes[0].querySelector('.shown')?.textContent).toBe('invoiceU+202Efdp.exe');
    // Typed or pasted text is shown the same way, as it changes.
    await user.type(screen.getByLabelText('Note'), '\u200B');
    expect(screen.getAllByRole('note').map((n) => n.querySelector('.shown')?.textContent)).toEqual(['invoiceU+202Efdp.exe', 'plainU+200B']);
  });

  it('collapses a long message behind Show more', async () => {
    const long = 'word '.repeat(400);
    const { user } = open({ message: long });
    const msg = document.querySelector('.server-text')!;
    expect(msg.textContent!.length).toBeLessThan(700);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(msg.textContent).toBe(long);
  });

  it('warns above the form when a field looks like a secret (E17)', () => {
    open({
      fields: [field('user', 'text', { label: 'User name' }), field('password', 'text', { label: 'Bank password', sensitive: true })],
      secretFields: ['password'],
    });
    // The warning names the field that set it off, by its label, and only that one.
    expect(screen.getByText(/This field seems to ask for a password, key or other secret: “Bank password”\./)).toBeTruthy();
    expect(screen.queryByText(/User name”/)).toBeNull();
    expect((screen.getByLabelText('Bank password') as HTMLInputElement).type).toBe('password');
  });

  it('has no warning for an ordinary form', () => {
    open({ fields: registerFields });
    expect(screen.queryByText(/seems to ask for a password/)).toBeNull();
  });

  it('pre-fills defaults and marks required fields (E12, E13)', () => {
    open({ fields: registerFields });
    expect((screen.getByLabelText('Age') as HTMLInputElement).value).toBe('30');
    expect((screen.getByLabelText('Newsletter') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Free') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Your name').parentElement!.querySelector('.req')).toBeTruthy();
    expect(screen.getByText('Age').parentElement!.querySelector('.req')).toBeNull();
    // What a field accepts is written under it, in Go's words.
    expect(screen.getByText('0 to 150.')).toBeTruthy();
    expect(screen.getByText('A whole number.')).toBeTruthy();
  });

  it('sends nothing before Submit and shows Go’s errors inline (E14, E15)', async () => {
    mocked.submitAnswer.mockResolvedValueOnce({ sent: false, errors: { email: msg('Enter an email address, like name@example.com.') } });
    const { user } = open({ fields: registerFields });
    await user.type(screen.getByLabelText(/^Your name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    expect(mocked.submitAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByText('Enter an email address, like name@example.com.');
    expect(screen.getByLabelText(/^Email/).getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(false);
    expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', {
      name: 'Ada',
      email: 'not-an-email',
      age: 30,
      newsletter: true,
      plan: 'free',
    });
  });

  it('submits typed values and takes no more input once Go sent them (E26)', async () => {
    const { user } = open({ fields: registerFields });
    await user.type(screen.getByLabelText(/^Your name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.clear(screen.getByLabelText('Age'));
    await user.type(screen.getByLabelText('Age'), '36');
    await user.click(screen.getByLabelText('Pro'));
    await user.click(screen.getByLabelText('Newsletter'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(expectAnswered);
    expect(mocked.submitAnswer).toHaveBeenCalledTimes(1);
    expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', {
      name: 'Ada',
      email: 'ada@example.com',
      age: 36,
      newsletter: false,
      plan: 'pro',
    });
  });

  it('Enter in a field submits', async () => {
    const { user } = open({ fields: [field('city', 'text', { label: 'City' })] });
    await user.type(screen.getByLabelText('City'), 'Lisbon{Enter}');
    await waitFor(expectAnswered);
    expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', { city: 'Lisbon' });
  });

  it('checks as the person types, showing errors only for touched fields (E15)', async () => {
    mocked.validateAnswer.mockResolvedValue({
      email: msg('Enter an email address, like name@example.com.'),
      name: msg('This field is required.'),
    });
    const { user } = open({ fields: registerFields });
    await user.type(screen.getByLabelText(/^Email/), 'x');
    await screen.findByText('Enter an email address, like name@example.com.');
    expect(screen.queryByText('This field is required.')).toBeNull();
  });

  it('Decline and Cancel answer as such; Escape is Cancel (E26)', async () => {
    const a = open();
    await a.user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
    a.unmount();

    const b = open({ id: 'req-2' });
    await b.user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(mocked.cancelQuestion).toHaveBeenCalledWith('req-2'));
    b.unmount();

    open({ id: 'req-3' });
    const dialog = document.querySelector('dialog')!;
    await fireEvent(dialog, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(mocked.cancelQuestion).toHaveBeenCalledWith('req-3'));
  });

  it('says so when the request is no longer open', async () => {
    const notOpen = { key: 'mcp.error.notOpen', args: {}, text: 'this request is no longer open' };
    mocked.declineQuestion.mockRejectedValueOnce(new api.GoError(notOpen, notOpen.text));
    const { user, onproblem } = open();
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(onproblem).toHaveBeenCalledWith(expect.stringContaining('no longer open')));
  });

  it('shows the queue and lets a waiting request be declined (E28)', async () => {
    const w = (id: string, serverId: string, serverName: string) => ({
      id,
      kind: 'form',
      serverId,
      serverName,
      message: `question ${id}`,
      receivedAt: '2026-11-22T10:00:00Z',
    });
    const { user, onrefuse } = open({}, [w('q1', 's1', 'Demo server'), w('q2', 's1', 'Demo server'), w('q3', 's9', 'Other')]);
    const toggle = screen.getByRole('button', { name: /2 more waiting from Demo server, 1 more from other servers/ });
    await user.click(toggle);
    const item = screen.getByText('question q3').closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Decline' }));
    expect(onrefuse).toHaveBeenCalledWith('q3', 'decline');
  });
});

describe('ConsentDialog with the keyboard', () => {
  const longForm = [
    field('name', 'text', { label: 'Your name', required: true }),
    field('agree', 'boolean', { label: 'I agree' }),
    field('plan', 'single-select', {
      label: 'Plan',
      default: 'free',
      options: [
        { value: 'free', label: 'Free' },
        { value: 'pro', label: 'Pro' },
      ],
    }),
  ];
  const active = () => document.activeElement;

  it('starts on the first field of a form', () => {
    open({ fields: longForm });
    expect(active()).toBe(screen.getByLabelText(/^Your name/));
  });

  it('a form without fields starts on Decline, so Enter alone sends nothing', () => {
    open({ fields: [] });
    expect(active()).toBe(screen.getByRole('button', { name: 'Decline' }));
  });

  it('Tab from the last control comes back to the first field, Shift+Tab from the first goes to the last', async () => {
    const { user } = open({ fields: longForm });
    await user.tab({ shift: true });
    expect(active()).toBe(screen.getByRole('button', { name: 'Submit' }));
    await user.tab();
    expect(active()).toBe(screen.getByLabelText(/^Your name/));
    // Forward through every stop: the switch, the radio group (one stop) and
    // its Clear choice, the three buttons, and round again.
    const seen: (Element | null)[] = [];
    for (let i = 0; i < 7; i++) {
      await user.tab();
      seen.push(active());
    }
    expect(seen).toEqual([
      screen.getByLabelText('I agree'),
      screen.getByLabelText('Free'),
      screen.getByRole('button', { name: 'Clear choice' }),
      screen.getByRole('button', { name: 'Cancel' }),
      screen.getByRole('button', { name: 'Decline' }),
      screen.getByRole('button', { name: 'Submit' }),
      screen.getByLabelText(/^Your name/),
    ]);
  });

  it('Enter on a switch submits the form', async () => {
    const { user } = open({ fields: [field('agree', 'boolean', { label: 'I agree' })] });
    await user.keyboard(' ');
    await user.keyboard('{Enter}');
    await waitFor(expectAnswered);
    expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', { agree: true });
  });

  it('Enter while an input method composes does not submit', async () => {
    open({ fields: [field('city', 'text', { label: 'City' })] });
    const input = screen.getByLabelText('City');
    await fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(mocked.submitAnswer).not.toHaveBeenCalled();
  });

  it.each([
    ['Escape', '{Escape}'],
    ['Ctrl+W', '{Control>}w{/Control}'],
  ])('%s on a form nobody changed answers Cancel at once', async (_, keys) => {
    const { user } = open({ fields: longForm });
    await user.keyboard(keys);
    await waitFor(() => expect(mocked.cancelQuestion).toHaveBeenCalledWith('req-1'));
  });

  it.each([
    ['Escape', '{Escape}'],
    ['Ctrl+W', '{Control>}w{/Control}'],
  ])('%s after typing asks first, starting on Keep answering, and keeps the input', async (_, keys) => {
    const { user } = open({ fields: longForm });
    await user.type(screen.getByLabelText(/^Your name/), 'Ada');
    await user.keyboard(keys);
    const keep = await screen.findByRole('button', { name: 'Keep answering' });
    expect(screen.getByRole('group', { name: 'Throw away what you entered and cancel?' })).toBeTruthy();
    expect(active()).toBe(keep);
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
    // The form behind the question takes no focus: Tab stays on the question's two buttons.
    await user.tab();
    expect(active()).toBe(screen.getByRole('button', { name: 'Throw away and cancel' }));
    await user.tab();
    expect(active()).toBe(keep);
    // Enter on the default keeps answering: back in the field, the text still there.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(active()).toBe(screen.getByLabelText(/^Your name/)));
    expect((screen.getByLabelText(/^Your name/) as HTMLInputElement).value).toBe('Ada');
    expect(screen.queryByRole('button', { name: 'Keep answering' })).toBeNull();
    // Asked again, Escape on the question also keeps answering.
    await user.keyboard(keys);
    await screen.findByRole('button', { name: 'Keep answering' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Keep answering' })).toBeNull());
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
    // And once more, throwing the answers away is the Cancel answer.
    await user.keyboard(keys);
    await user.click(await screen.findByRole('button', { name: 'Throw away and cancel' }));
    await waitFor(() => expect(mocked.cancelQuestion).toHaveBeenCalledWith('req-1'));
  });

  it('the engine’s own close request asks too when the form was changed', async () => {
    const { user } = open({ fields: longForm });
    await user.type(screen.getByLabelText(/^Your name/), 'Ada');
    await fireEvent(document.querySelector('dialog')!, new Event('cancel', { cancelable: true }));
    await screen.findByRole('button', { name: 'Keep answering' });
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
  });

  it('jumping to the first error brings the whole field, its label too, into view', async () => {
    mocked.submitAnswer.mockResolvedValueOnce({
      sent: false,
      errors: { agree: msg('Switch it on or off: it is not answered yet.'), name: msg('This field is required.') },
    });
    // jsdom has no layout: record what the dialog asks to bring into view.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const { user } = open({ fields: [field('agree', 'boolean', { label: 'I agree', required: true }), ...longForm.slice(0, 1)] });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByText('Switch it on or off: it is not answered yet.');
    const sw = screen.getByLabelText(/^I agree/);
    await waitFor(() => expect(active()).toBe(sw));
    // The field scrolled into view is the one holding the label, not the input alone.
    expect(scrolled).toHaveLength(1);
    expect(scrolled[0].contains(screen.getByText('I agree'))).toBe(true);
    expect(scrolled[0].contains(sw)).toBe(true);
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });
});

describe('a switch nobody touched', () => {
  it('shows "Not answered", says "mixed" to a screen reader and sends nothing (E14)', async () => {
    const { user } = open({ fields: [field('agree', 'boolean', { label: 'I agree' })] });
    const sw = screen.getByRole('switch', { name: 'I agree' }) as HTMLInputElement;
    expect(sw.indeterminate).toBe(true);
    expect(sw.getAttribute('aria-checked')).toBe('mixed');
    expect(screen.getByText('Not answered')).toBeTruthy();
    expect(sw.getAttribute('aria-describedby')).toContain(screen.getByText('Not answered').id);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(expectAnswered);
    expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', {});
  });

  it('once switched it sends what it shows, off included, and Clear choice makes it unanswered again', async () => {
    const { user } = open({ fields: [field('agree', 'boolean', { label: 'I agree' })] });
    const sw = screen.getByRole('switch', { name: 'I agree' }) as HTMLInputElement;
    await user.click(sw); // on
    expect(sw.checked).toBe(true);
    expect(sw.getAttribute('aria-checked')).toBeNull();
    expect(screen.queryByText('Not answered')).toBeNull();
    await user.click(sw); // off, as the person chose
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', { agree: false }));
  });

  it('Clear choice returns an optional switch to "Not answered"', async () => {
    const { user } = open({ fields: [field('agree', 'boolean', { label: 'I agree' })] });
    await user.click(screen.getByRole('switch', { name: 'I agree' }));
    await user.click(screen.getByRole('button', { name: 'Clear choice' }));
    expect(screen.getByText('Not answered')).toBeTruthy();
    expect((screen.getByRole('switch', { name: 'I agree' }) as HTMLInputElement).indeterminate).toBe(true);
  });

  it('a switch with a default shows it and sends it, and offers no Clear choice (E12)', async () => {
    const { user } = open({ fields: [field('news', 'boolean', { label: 'Newsletter', default: false })] });
    const sw = screen.getByRole('switch', { name: 'Newsletter' }) as HTMLInputElement;
    expect(sw.indeterminate).toBe(false);
    expect(sw.checked).toBe(false);
    expect(screen.queryByText('Not answered')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear choice' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(mocked.submitAnswer).toHaveBeenCalledWith('req-1', { news: false }));
  });
});
