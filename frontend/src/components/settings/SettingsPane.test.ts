// Settings saves as you go (issue 12, "one way of saving on the whole page"):
// every control stores its change at once and says "Saved" next to itself,
// announced; a number is stored when it is committed (Enter, leaving the
// field), and one that is refused stays in the field with the reason while
// the stored value stays. api.ts is mocked; e2e/settings.test.mjs drives the
// real app and restarts it on the same data.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { SettingsView } from '../../lib/api';
import { savedMark } from '../../lib/saved.svelte';
import { settings } from '../../lib/settings.svelte';
import { language } from '../../lib/i18n.svelte';
import { description, savedNote } from '../../test/saved-note';
import { nav, type SettingsSection } from '../../lib/navigate.svelte';
import SettingsPane from './SettingsPane.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const answerTime = () => screen.getByLabelText('Time to answer a request (minutes)') as HTMLInputElement;
const toolTime = () => screen.getByLabelText('Tool call time limit (seconds)') as HTMLInputElement;
const remember = () => screen.getByRole('switch', { name: 'Remember my answers in the history' }) as HTMLInputElement;

describe('SettingsPane', () => {
  let stored: SettingsView;

  beforeEach(() => {
    vi.clearAllMocks();
    savedMark.clear();
    nav.reset();
    settings.drafts = {};
    settings.problems = {};
    language.choice = '';
    stored = { elicitationTimeoutMinutes: 10, toolCallTimeoutSeconds: 60, rememberAnswers: false };
    mocked.appInfo.mockResolvedValue({ version: 'test', dataDir: '/tmp/d', dbPath: '/tmp/d/g.db', keyring: true });
    mocked.getSettings.mockImplementation(async () => ({ ...stored }));
    // Go's own limits, as app/settings.go checks them, refused with its sentence (a catalogue message).
    mocked.saveSettings.mockImplementation(async (v: SettingsView) => {
      if (v.elicitationTimeoutMinutes < 1 || v.elicitationTimeoutMinutes > 1440) {
        throw { key: 'settings.error.answerTime', args: {}, text: 'The answer time must be between 1 minute and 24 hours.' };
      }
      if (v.toolCallTimeoutSeconds < 5 || v.toolCallTimeoutSeconds > 86400) {
        throw { key: 'settings.error.toolTime', args: {}, text: 'The tool call time limit must be between 5 seconds and 24 hours.' };
      }
      stored = { ...v };
    });
  });

  /** The pane on Requests from servers (where the numbers are), or on another section. */
  async function open(section: SettingsSection = 'requests') {
    mocked.settingsSection.mockResolvedValue(section);
    const view = render(SettingsPane);
    await screen.findByRole('tab', { name: 'General' });
    await waitFor(() => expect(nav.section).toBe(section));
    return view;
  }

  const tab = (name: string) => screen.getByRole('tab', { name });

  it('has no Save button: every change is stored as it is made', async () => {
    await open('general');
    expect(screen.getByText('Each change is saved as soon as you make it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Save/ })).toBeNull();
  });

  it('a number is saved on Enter and says Saved next to it, announced', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '25{Enter}');
    await waitFor(() => expect(savedNote('elicitationTimeoutMinutes')).toBe('Saved.'));
    expect(mocked.saveSettings).toHaveBeenCalledTimes(1);
    expect(stored).toEqual({ elicitationTimeoutMinutes: 25, toolCallTimeoutSeconds: 60, rememberAnswers: false });
    const note = answerTime().parentElement!.querySelector('[data-saved-for]')!;
    expect(note.getAttribute('aria-live')).toBe('polite');
    expect(note.getAttribute('role')).toBe('status');
    expect(savedNote('toolCallTimeoutSeconds')).toBe('');
  });

  it('a number is saved when the person leaves the field', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(toolTime());
    await user.type(toolTime(), '300');
    expect(mocked.saveSettings).not.toHaveBeenCalled(); // not while typing
    await user.tab();
    await waitFor(() => expect(savedNote('toolCallTimeoutSeconds')).toBe('Saved.'));
    expect(stored.toolCallTimeoutSeconds).toBe(300);
  });

  it('typing again takes the Saved away until the new value is stored', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '5{Enter}');
    await waitFor(() => expect(savedNote('elicitationTimeoutMinutes')).toBe('Saved.'));
    await user.type(answerTime(), '0');
    expect(savedNote('elicitationTimeoutMinutes')).toBe('');
  });

  it('a value that is not a whole number stays in the field, says why, and is not sent', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '2.5{Enter}');
    const error = await screen.findByText('Enter a whole number of minutes, for example 10.');
    expect(answerTime().value).toBe('2.5');
    expect(answerTime().getAttribute('aria-invalid')).toBe('true');
    expect(description(answerTime())).toContain(error.textContent);
    expect(mocked.saveSettings).not.toHaveBeenCalled();
    expect(savedNote('elicitationTimeoutMinutes')).toBe('');
  });

  it('a value Go refuses stays in the field with Go’s sentence, and the stored value stays until it is fixed', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '0{Enter}');
    const error = await screen.findByText('The answer time must be between 1 minute and 24 hours.');
    expect(error.getAttribute('role')).toBe('alert');
    expect(answerTime().value).toBe('0');
    expect(stored.elicitationTimeoutMinutes).toBe(10);

    // Another setting saved meanwhile sends the stored answer time, not the refused one.
    await user.click(remember());
    await waitFor(() => expect(savedNote('rememberAnswers')).toBe('Saved.'));
    expect(stored).toEqual({ elicitationTimeoutMinutes: 10, toolCallTimeoutSeconds: 60, rememberAnswers: true });
    expect(answerTime().value).toBe('0');
    expect(screen.getByText('The answer time must be between 1 minute and 24 hours.')).toBeTruthy();

    // Fixed: stored, the sentence goes, Saved shows.
    await user.clear(answerTime());
    await user.type(answerTime(), '3{Enter}');
    await waitFor(() => expect(savedNote('elicitationTimeoutMinutes')).toBe('Saved.'));
    expect(stored.elicitationTimeoutMinutes).toBe(3);
    expect(screen.queryByText('The answer time must be between 1 minute and 24 hours.')).toBeNull();
    expect(answerTime().getAttribute('aria-invalid')).toBeNull();
  });

  it('a refused value is still there after leaving the pane and coming back', async () => {
    const user = userEvent.setup();
    const first = await open();
    await user.clear(toolTime());
    await user.type(toolTime(), '2{Enter}');
    await screen.findByText('The tool call time limit must be between 5 seconds and 24 hours.');
    first.unmount();
    await open();
    expect(toolTime().value).toBe('2');
    expect(screen.getByText('The tool call time limit must be between 5 seconds and 24 hours.')).toBeTruthy();
    expect(stored.toolCallTimeoutSeconds).toBe(60);
  });

  it('the reason next to a refused value follows a change of language', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '0{Enter}');
    await user.clear(toolTime());
    await user.type(toolTime(), '1.5{Enter}');
    await screen.findByText('Enter a whole number of seconds, for example 120.');
    await user.click(tab('General'));
    await user.selectOptions(screen.getByLabelText('Language of the window'), 'zh-CN');
    await user.click(await screen.findByRole('tab', { name: '来自服务器的请求' }));
    await screen.findByText('答复时限必须在 1 分钟到 24 小时之间。');
    expect(screen.getByText('请输入整数秒数，例如 120。')).toBeTruthy();
    expect((screen.getByLabelText('答复请求的时限（分钟）') as HTMLInputElement).value).toBe('0');
  });

  it('putting the stored value back only clears the sentence', async () => {
    const user = userEvent.setup();
    await open();
    await user.clear(answerTime());
    await user.type(answerTime(), '1.5{Enter}');
    await screen.findByText('Enter a whole number of minutes, for example 10.');
    await user.clear(answerTime());
    await user.type(answerTime(), '10{Enter}');
    await waitFor(() => expect(screen.queryByText('Enter a whole number of minutes, for example 10.')).toBeNull());
    expect(mocked.saveSettings).not.toHaveBeenCalled();
  });

  it('Remember my answers is stored when switched, and goes back when refused', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(remember());
    await waitFor(() => expect(savedNote('rememberAnswers')).toBe('Saved.'));
    expect(stored.rememberAnswers).toBe(true);

    mocked.saveSettings.mockRejectedValueOnce(new Error('the data file is read-only'));
    await user.click(remember());
    expect((await screen.findByRole('alert')).textContent).toBe('the data file is read-only');
    expect(remember().checked).toBe(true);
    expect(savedNote('rememberAnswers')).toBe('');
  });

  it('the language and the theme say Saved next to themselves once Go stored them', async () => {
    const user = userEvent.setup();
    await open('general');
    await user.selectOptions(screen.getByLabelText('Theme'), 'dark');
    await waitFor(() => expect(savedNote('theme')).toBe('Saved.'));
    expect(mocked.setTheme).toHaveBeenCalledWith('dark');

    await user.selectOptions(screen.getByLabelText('Language of the window'), 'zh-CN');
    await waitFor(() => expect(savedNote('language')).toBe('已保存。'));
    expect(savedNote('theme')).toBe('');
    const languageRow = screen.getByLabelText('界面语言').parentElement!;
    expect(within(languageRow).getByRole('status').textContent).toContain('已保存');
  });
});
