// What the consent dialog (ConsentDialog.svelte, the frame) gives the body
// of each kind of question it shows.

import type { Snippet } from 'svelte';

export interface ConsentFrame {
  /** The part that scrolls: the server's message, content, then (unless queue is false) the questions waiting. */
  body: Snippet<[content: Snippet, queue?: boolean]>;
  /**
   * The footer: sentences about the answer (error, then a failed call's),
   * then the buttons: Cancel when cancel is set, the safe choice (decline,
   * labelled safe), and rest; or the question whether to throw the answers away.
   */
  footer: Snippet<[rest: Snippet, safe: string, cancel?: boolean, error?: string]>;
  /** An answer is being sent or was sent: the buttons take no input. */
  readonly locked: boolean;
  /** Sends an answer unless one is on its way; fn says whether it was sent, and then the dialog takes no more input. */
  act(fn: () => Promise<boolean>): Promise<void>;
  /** Sends the answer send makes of the question's ID. */
  answer(send: (id: string) => Promise<void>): Promise<void>;
}
