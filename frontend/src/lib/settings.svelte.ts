// The settings store: what the settings pane shows and edits.

import * as api from './api';
import type { AppInfo, SettingsView } from './api';
import { language, matchLanguage } from './i18n.svelte';

class SettingsStore {
  info = $state<AppInfo | null>(null);
  values = $state<SettingsView | null>(null);
  error = $state('');

  async load(): Promise<void> {
    try {
      [this.info, this.values] = await Promise.all([api.appInfo(), api.getSettings()]);
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /** Reads the language choice from Go and follows its changes; returns the unsubscribe. */
  startLanguage(): () => void {
    const follow = (v: api.LanguageView) => {
      language.choice = v.choice;
      const system = matchLanguage(v.system);
      if (system) language.system = system;
    };
    api
      .getLanguage()
      .then(follow)
      .catch(() => {}); // outside the app (no core): navigator.language
    return api.onLanguage(follow);
  }

  /** Changes the language at once (the window re-renders) and stores the choice: '' follows the system. */
  async setLanguage(choice: string): Promise<void> {
    const before = language.choice;
    language.choice = choice;
    try {
      await api.setLanguage(choice);
    } catch (e) {
      language.choice = before;
      throw e;
    }
  }

  /** Saves the settings; throws a sentence for people when Go refuses them. */
  async save(v: SettingsView): Promise<void> {
    await api.saveSettings(v);
    this.values = { ...v };
  }
}

export const settings = new SettingsStore();
