// The tool permissions store: every server's tool permissions and the tools
// it offers now, read again when they change (policies:changed, also sent
// when the consent dialog's "Always allow this tool" saves one), when a
// server changes (added, removed, connected) and when a server's tools
// change. As in the servers store, an event is taken as "something changed":
// events can arrive out of order, and a read after the last one shows the
// final state.

import * as api from './api';
import type { ServerPolicyView } from './api';

class PoliciesStore {
  list = $state<ServerPolicyView[]>([]);
  loaded = $state(false);
  /** Set when the list could not be loaded. */
  error = $state('');

  private reading: Promise<void> | null = null;
  private again = false;

  /** Loads the list and follows changes; returns a function that stops following. */
  start(): () => void {
    const refresh = () => void this.refresh();
    const offs = [api.onPoliciesChanged(refresh), api.onServersChanged(refresh), api.onToolsChanged(refresh)];
    void this.refresh();
    return () => offs.forEach((off) => off());
  }

  /** Reads the list from Go; calls made while a read is running cause one more read after it. */
  refresh(): Promise<void> {
    this.again = true;
    if (!this.reading) {
      this.reading = (async () => {
        while (this.again) {
          this.again = false;
          try {
            this.list = await api.listPolicies();
            this.loaded = true;
            this.error = '';
          } catch (e) {
            this.error = api.errorText(e);
          }
        }
        this.reading = null;
      })();
    }
    return this.reading;
  }
}

export const policies = new PoliciesStore();
