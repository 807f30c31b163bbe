// lib/navigate: the one way every "Settings → X" link goes there, and the
// kept section. api.ts is mocked.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { nav, openSettings, settingsSections } from './navigate.svelte';

vi.mock('./api', async (orig) => (await import('../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

describe('navigate', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    nav.reset();
  });

  it('openSettings shows Settings on the section, keeps it, and asks the pane to focus it', () => {
    nav.pane = 'chat';
    openSettings('models');
    expect([nav.pane, nav.section, nav.arriving]).toEqual(['settings', 'models', true]);
    expect(mocked.setSettingsSection).toHaveBeenCalledWith('models');
  });

  it('reads the kept section once; a choice made before Go answered wins', async () => {
    let answer: (s: string) => void = () => {};
    mocked.settingsSection.mockImplementation(() => new Promise((r) => (answer = r)));
    const reading = nav.loadSection();
    nav.chooseSection('about');
    answer('models');
    await reading;
    expect(nav.section).toBe('about');
    await nav.loadSection();
    expect(mocked.settingsSection).toHaveBeenCalledTimes(1);
  });

  it('takes a kept section only if it is one of the pane’s', async () => {
    mocked.settingsSection.mockResolvedValue('nonsense');
    await nav.loadSection();
    expect(nav.section).toBe('general');
    nav.reset();
    mocked.settingsSection.mockResolvedValue('requests');
    await nav.loadSection();
    expect(nav.section).toBe('requests');
  });

  it('names the same sections as Go (app.SettingsSections)', () => {
    expect(settingsSections.map((s) => s.id)).toEqual(['general', 'models', 'permissions', 'requests', 'apps', 'about']);
  });
});
