// The model providers store: the presets Gatehouse knows and every
// configured provider, read again on each providers:changed event (as the
// servers store does: events may arrive out of order, a read after the last
// one shows the final list).

import * as api from './api';
import type { PresetView, ProviderView } from './api';

class ProvidersStore {
  list = $state<ProviderView[]>([]);
  presets = $state<PresetView[]>([]);
  loaded = $state(false);
  /** Set when the list or the presets could not be loaded. */
  error = $state('');

  /** Loads the presets and the list and follows changes; returns a function that stops following. */
  start(): () => void {
    const off = api.onProvidersChanged(() => void this.refresh());
    void this.load();
    return off;
  }

  /** Reads the presets and the list from Go. */
  async load(): Promise<void> {
    try {
      const [presets, list] = await Promise.all([api.providerPresets(), api.listProviders()]);
      this.presets = presets;
      this.set(list);
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /** Reads the list again: on each providers:changed event, and after the window's own changes. */
  async refresh(): Promise<void> {
    try {
      this.set(await api.listProviders());
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  set(list: ProviderView[]): void {
    this.list = list;
    this.loaded = true;
  }

  /** The preset with this ID, if Gatehouse knows it. */
  preset(id: string): PresetView | undefined {
    return this.presets.find((p) => p.id === id);
  }
}

export const providers = new ProvidersStore();
