// Settings saves as you go (issue 12, "one way of saving on the whole page"):
// every control stores its change at once and says "Saved" next to itself,
// announced; a number is stored when it is committed (Enter, leaving the
// field), and one that is refused stays in the field with the reason while
// the stored value stays. api.ts is mocked; e2e/settings.test.mjs drives the
// real app and restarts it on the same data.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { SettingsView } from '../../lib/api';
import { savedMark } from '../../lib/saved.svelte';
import { settings } from '../../lib/settings.svelte';
import { language } from '../../lib/i18n.svelte';
import { description, savedNote } from '../../test/saved-note';
import { nav, openSettings, type SettingsSection } from '../../lib/navigate.svelte';
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

  describe('sections', () => {
    const sectionNames = ['General', 'Models', 'Tool permissions', 'Requests from servers', 'Connected apps', 'About'];

    it('is a side list of six sections, one shown at a time: Models alone, never below the tool list', async () => {
      const user = userEvent.setup();
      await open('general');
      const list = screen.getByRole('tablist', { name: 'Sections of Settings' });
      expect(list.getAttribute('aria-orientation')).toBe('vertical');
      expect(within(list).getAllByRole('tab').map((t) => t.textContent)).toEqual(sectionNames);
      expect(screen.getByRole('tabpanel', { name: 'General' })).toBeTruthy();
      expect(screen.getByLabelText('Language of the window')).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Models' })).toBeNull();

      await user.click(tab('Models'));
      expect(await screen.findByRole('heading', { name: 'Models', level: 2 })).toBeTruthy();
      expect(tab('Models').getAttribute('aria-selected')).toBe('true');
      expect(tab('General').getAttribute('aria-selected')).toBe('false');
      expect(screen.getByRole('tabpanel', { name: 'Models' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Tool permissions' })).toBeNull();
      expect(screen.queryByLabelText('Language of the window')).toBeNull();
      expect(mocked.setSettingsSection).toHaveBeenLastCalledWith('models');
    });

    it('is reached with Tab on the chosen section, and the arrows, Home and End move and show', async () => {
      const user = userEvent.setup();
      await open('general');
      // One Tab stop for the list: the chosen section's tab.
      expect(within(screen.getByRole('tablist')).getAllByRole('tab').filter((t) => t.tabIndex === 0)).toEqual([tab('General')]);
      await user.tab();
      expect(document.activeElement).toBe(tab('General'));

      await user.keyboard('{ArrowDown}');
      expect(document.activeElement).toBe(tab('Models'));
      expect(nav.section).toBe('models');
      expect(await screen.findByRole('heading', { name: 'Models', level: 2 })).toBeTruthy();
      await user.keyboard('{End}');
      expect(document.activeElement).toBe(tab('About'));
      expect(await screen.findByText('Gatehouse is licensed under the Apache License 2.0.')).toBeTruthy();
      await user.keyboard('{ArrowDown}'); // wraps
      expect(document.activeElement).toBe(tab('General'));
      await user.keyboard('{ArrowUp}');
      expect(document.activeElement).toBe(tab('About'));
      await user.keyboard('{Home}');
      expect(document.activeElement).toBe(tab('General'));
      expect(tab('General').tabIndex).toBe(0);
      expect(tab('About').tabIndex).toBe(-1);
      // Tab goes on into the section shown.
      await user.tab();
      expect(document.activeElement).toBe(screen.getByLabelText('Language of the window'));
    });

    it('keeps the choice: across leaving the pane, and from the data file after a restart', async () => {
      const user = userEvent.setup();
      const first = await open('general');
      await user.click(tab('Tool permissions'));
      expect(mocked.setSettingsSection).toHaveBeenLastCalledWith('permissions');
      first.unmount();
      render(SettingsPane); // another pane and back: the same section
      expect((await screen.findByRole('tab', { name: 'Tool permissions' })).getAttribute('aria-selected')).toBe('true');
      cleanup();

      // A restart: nothing in memory, the data file says About.
      nav.reset();
      mocked.settingsSection.mockResolvedValue('about');
      render(SettingsPane);
      await waitFor(() => expect(tab('About').getAttribute('aria-selected')).toBe('true'));
      expect(await screen.findByText('Gatehouse is licensed under the Apache License 2.0.')).toBeTruthy();
    });

    it('a "Settings → Models" link opens the pane on Models with the focus on its heading', async () => {
      const view = await open('general');
      openSettings('models');
      const heading = await screen.findByRole('heading', { name: 'Models', level: 2 });
      await waitFor(() => expect(document.activeElement).toBe(heading));
      expect(nav.pane).toBe('settings');
      view.unmount();

      // From another pane: the pane mounts after the link was followed.
      nav.reset();
      openSettings('permissions');
      render(SettingsPane);
      const perms = await screen.findByRole('heading', { name: 'Tool permissions', level: 2 });
      await waitFor(() => expect(document.activeElement).toBe(perms));
      expect(tab('Tool permissions').getAttribute('aria-selected')).toBe('true');
    });
  });

  describe('About', () => {
    it('shows the version, the data folder with Open folder, the licence and what is compiled in', async () => {
      const user = userEvent.setup();
      mocked.licences.mockResolvedValue({
        gatehouse: 'Apache-2.0',
        modules: [
          { kind: 'go', name: 'std', version: 'go1.25.0', licence: 'BSD-3-Clause' },
          { kind: 'go', name: 'go.etcd.io/bbolt', version: 'v1.5.0', licence: 'Expat' },
          { kind: 'npm', name: 'svelte', version: '5.0.0', licence: 'Expat' },
        ],
      });
      await open('about');
      expect(await screen.findByText('/tmp/d')).toBeTruthy();
      expect(screen.getByText('test')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Open folder' }));
      expect(mocked.openDataFolder).toHaveBeenCalledWith();

      const table = await screen.findByRole('table', { name: 'What Gatehouse is built from' });
      const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
      expect(rows).toEqual(['Go standard librarygo1.25.0BSD-3-Clause', 'go.etcd.io/bboltv1.5.0MIT (Expat)', 'svelte5.0.0MIT (Expat)']);

      mocked.openDataFolder.mockRejectedValueOnce({ key: 'settings.error.openFolder', args: { detail: 'exit status 4' }, text: '' });
      await user.click(screen.getByRole('button', { name: 'Open folder' }));
      expect((await screen.findByRole('alert')).textContent).toBe('The folder could not be opened: exit status 4');
    });

    it('opens the documentation only through the consent display, by the name of the document', async () => {
      const user = userEvent.setup();
      const url = 'https://github.com/gatehouse-app/gatehouse#readme';
      mocked.checkDocsLink.mockResolvedValue({
        id: 'D1',
        link: {
          url,
          scheme: 'https',
          host: 'github.com',
          asciiHost: 'github.com',
          port: '',
          domain: 'github.com',
          asciiDomain: 'github.com',
          display: url,
          before: 'https://',
          domainPart: 'github.com',
          after: '/gatehouse-app/gatehouse#readme',
          loopback: false,
          warnings: [],
        },
      });
      await open('about');
      await user.click(await screen.findByRole('button', { name: 'User guide (README)' }));
      expect(mocked.checkDocsLink).toHaveBeenCalledWith('readme');
      const dialog = await screen.findByRole('dialog');
      expect(mocked.openDocsLink).not.toHaveBeenCalled();
      await user.click(within(dialog).getByRole('button', { name: 'Open in browser' }));
      expect(mocked.openDocsLink).toHaveBeenCalledWith('D1');
    });
  });
});
