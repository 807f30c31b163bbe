// The consent dialog's code (the dialog, its form fields, the tool-call,
// sampling and page bodies: about a third of the window's own code) is a
// chunk of its own, not part of the script the window compiles before its
// first frame (README, P4). It is fetched once that frame is on the screen,
// by the dialog's rehearsal (ConsentRehearsal.svelte), or at once when a
// question is waiting first.

import type ConsentDialog from '../components/consent/ConsentDialog.svelte';

class ConsentDialogCode {
  /** The dialog's component once its chunk has run; undefined until then. */
  component = $state<typeof ConsentDialog>();
  #loading: Promise<void> | undefined;

  /** Fetches and runs the chunk, once; one that failed is fetched again on the next call. */
  load(): Promise<void> {
    this.#loading ??= import('../components/consent/ConsentDialog.svelte').then(
      (m) => {
        this.component = m.default;
      },
      (e: unknown) => {
        this.#loading = undefined;
        console.error('the consent dialog did not load:', e);
      },
    );
    return this.#loading;
  }
}

/** The consent dialog's code, loaded when first wanted. */
export const consentDialog = new ConsentDialogCode();
