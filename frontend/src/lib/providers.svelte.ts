// The model providers store: the presets Gatehouse knows and every
// configured provider, as the providers:changed event carries them; a list
// older than the one shown is dropped (as in the servers store).

import * as api from './api';
import type { PresetView, ProviderList, ProviderView } from './api';
import { newestVersion } from './latest';

class ProvidersStore {
  list = $state<ProviderView[]>([]);
  presets = $state<PresetView[]>([]);
  loaded = $state(false);
  /** Set when the list or the presets could not be loaded. */
  error = $state('');
  private newer = newestVersion();

  /** Loads the presets and the list and follows changes; returns a function that stops following. */
  start(): () => void {
    const off = api.onProvidersChanged((list) => this.apply(list));
    void this.load();
    return off;
  }

  /** Reads the presets and the list from Go. */
  async load(): Promise<void> {
    try {
      const [presets, list] = await Promise.all([api.providerPresets(), api.listProviders()]);
      this.presets = presets;
      this.apply(list);
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /** Reads the list again, after the window's own changes. */
  async refresh(): Promise<void> {
    try {
      this.apply(await api.listProviders());
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /** Shows a list Go read, unless the one shown is newer. */
  apply(list: ProviderList): void {
    if (!this.newer(list.version)) return;
    this.list = list.providers;
    this.loaded = true;
  }

  /** The preset with this ID, if Gatehouse knows it. */
  preset(id: string): PresetView | undefined {
    return this.presets.find((p) => p.id === id);
  }
}

export const providers = new ProvidersStore();
