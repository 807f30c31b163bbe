// The first-start welcome: shown while the person has no server of their
// own (none, or only the built-in demo server) and has not dismissed it.
// The dismissal is kept in Go's settings, so the welcome never comes back.

import { t } from './i18n.svelte';
import * as api from './api';
import { servers } from './servers.svelte';

class WelcomeStore {
  /** Whether the person dismissed it; null until Go has said. */
  dismissed = $state<boolean | null>(null);
  /** A sentence when the dismissal could not be stored. */
  error = $state('');

  /** Asks Go whether the welcome was dismissed before. */
  async load(): Promise<void> {
    try {
      this.dismissed = await api.welcomeDismissed();
    } catch {
      this.dismissed = true; // not knowing, stay out of the way
    }
  }

  /** Whether the welcome shows now. */
  get visible(): boolean {
    return this.dismissed === false && servers.loaded && servers.list.every((s) => s.demo);
  }

  /** The demo server, if it is configured. */
  get demo() {
    return servers.list.find((s) => s.demo);
  }

  /** Hides the welcome for good; it stays shown, with a sentence, if Go could not store that. */
  async dismiss(): Promise<void> {
    try {
      await api.dismissWelcome();
      this.dismissed = true;
      this.error = '';
    } catch (e) {
      this.error = t('welcome.dismissFailed', { detail: api.errorText(e) });
    }
  }
}

export const welcome = new WelcomeStore();
