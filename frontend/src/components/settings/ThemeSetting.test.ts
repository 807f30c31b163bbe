// Settings → Theme: the choice shows at once (data-theme on the html
// element, which app.css reads) and is saved in Go; the desktop's preference
// that Go sends is followed while the choice is System. api.ts is mocked;
// e2e/theme.test.mjs drives the real app.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ThemeView } from '../../lib/api';
import { theme } from '../../lib/theme.svelte';
import ThemeSetting from './ThemeSetting.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const shown = () => document.documentElement.dataset.theme;

describe('ThemeSetting', () => {
  let stop = () => {};
  let sendFromGo: (v: ThemeView) => void = () => {};

  beforeEach(() => {
    vi.clearAllMocks();
    delete document.documentElement.dataset.theme;
    mocked.onThemeChanged.mockImplementation((cb) => {
      sendFromGo = cb;
      return () => {};
    });
  });
  afterEach(() => stop());

  async function start(fromGo: ThemeView) {
    mocked.getTheme.mockResolvedValue(fromGo);
    stop = theme.start();
    render(ThemeSetting);
    await waitFor(() => expect((screen.getByLabelText('Theme') as HTMLSelectElement).value).toBe(fromGo.choice));
  }

  it.each([
    { name: 'a saved dark choice shows dark', fromGo: { choice: 'dark', system: 'light' } as ThemeView, want: 'dark' },
    { name: 'a saved light choice shows light on a dark desktop', fromGo: { choice: 'light', system: 'dark' } as ThemeView, want: 'light' },
    { name: 'System shows what Go read from the desktop', fromGo: { choice: 'system', system: 'dark' } as ThemeView, want: 'dark' },
    { name: 'System with nothing read leaves it to the engine', fromGo: { choice: 'system', system: '' } as ThemeView, want: undefined },
  ])('$name', async ({ fromGo, want }) => {
    await start(fromGo);
    expect(shown()).toBe(want);
  });

  it('picking Dark shows it at once and saves it', async () => {
    await start({ choice: 'system', system: '' });
    let answer: (v: ThemeView) => void = () => {};
    mocked.setTheme.mockImplementation(() => new Promise((res) => (answer = res)));
    await userEvent.selectOptions(screen.getByLabelText('Theme'), 'dark');
    expect(shown()).toBe('dark'); // before Go answered
    expect(mocked.setTheme).toHaveBeenCalledWith('dark');
    answer({ choice: 'dark', system: '' });
    await waitFor(() => expect(theme.choice).toBe('dark'));
    expect(shown()).toBe('dark');
  });

  it('a refused choice goes back and says why', async () => {
    await start({ choice: 'light', system: '' });
    mocked.setTheme.mockRejectedValue(new Error('the data file is read-only'));
    await userEvent.selectOptions(screen.getByLabelText('Theme'), 'dark');
    expect((await screen.findByRole('alert')).textContent).toContain('the data file is read-only');
    expect(shown()).toBe('light');
    expect((screen.getByLabelText('Theme') as HTMLSelectElement).value).toBe('light');
  });

  it('follows the desktop switching while the choice is System, not otherwise', async () => {
    await start({ choice: 'system', system: 'light' });
    expect(shown()).toBe('light');
    sendFromGo({ choice: 'system', system: 'dark' });
    await waitFor(() => expect(shown()).toBe('dark'));
    sendFromGo({ choice: 'light', system: 'dark' });
    await waitFor(() => expect(shown()).toBe('light'));
  });
});
