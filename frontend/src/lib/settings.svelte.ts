// The settings store: what the settings pane shows about the app.

import * as api from './api';
import type { AppInfo } from './api';

class SettingsStore {
  info = $state<AppInfo | null>(null);
  error = $state('');

  async load(): Promise<void> {
    try {
      this.info = await api.appInfo();
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }
}

export const settings = new SettingsStore();
