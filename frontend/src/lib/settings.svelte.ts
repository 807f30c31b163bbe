// The settings store: what the settings pane shows and edits.

import * as api from './api';
import type { AppInfo, SettingsView } from './api';

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

  /** Saves the settings; throws a sentence for people when Go refuses them. */
  async save(v: SettingsView): Promise<void> {
    await api.saveSettings(v);
    this.values = { ...v };
  }
}

export const settings = new SettingsStore();
