// The window's own keyboard shortcuts (issue 12): Ctrl+1 … Ctrl+5 open the
// panes in the sidebar's order, Ctrl+Q quits, Ctrl+W closes the dialog in
// front (and does nothing without one).
//
// The listener sits on the window and runs last, after every handler inside
// the page: a component that gives one of these keys a meaning of its own
// calls preventDefault() on the keydown, and the window leaves it alone.
//
// The contract for dialogs: every dialog is a native <dialog> opened with
// showModal(). Ctrl+W does to the one in front exactly what Escape does to a
// modal <dialog>: it fires a cancelable, non-bubbling `cancel` event on it and
// closes it (dialog.close(), hence a `close` event) unless the handler called
// preventDefault(). So a dialog that handles Escape right — asking before it
// throws unsaved input away, or answering a question as Cancel — handles
// Ctrl+W the same way with no code of its own.
//
// While a dialog is open the pane shortcuts wait: the dialog asks something
// of the person, and the page behind it is inert.

/** One of the window's shortcuts: a pane by its place in the sidebar (0-based), quitting, or closing a dialog. */
export type Shortcut = { pane: number } | 'quit' | 'close';

/** paneCount is how many panes have a shortcut: Ctrl+1 … Ctrl+5. */
export const paneCount = 5;

/**
 * shortcutLabel is what the person presses for a pane (0-based), as the
 * sidebar's tooltip and aria-keyshortcuts say it: "Ctrl+1" and "Control+1".
 */
export function shortcutLabel(pane: number): { shown: string; aria: string } {
  return { shown: `Ctrl+${pane + 1}`, aria: `Control+${pane + 1}` };
}

/**
 * The key pressed, as a lower-case letter or digit: the character it typed
 * when that is one (so Ctrl+A on a French keyboard is A, not Q), else the
 * key's place on a US keyboard (Ctrl+Й on a Russian one is Q; a digit on
 * the number pad, or one a layout types only with Shift, is that digit).
 */
function keyOf(e: KeyboardEvent): string {
  if (/^[a-z0-9]$/i.test(e.key)) return e.key.toLowerCase();
  const m = /^(?:Key|Digit|Numpad)([A-Z0-9])$/.exec(e.code);
  return m ? m[1].toLowerCase() : '';
}

/** shortcutOf says which of the window's shortcuts a key press is, or null. */
export function shortcutOf(e: KeyboardEvent): Shortcut | null {
  // Ctrl alone: Ctrl+Alt is AltGr on many keyboards, and an input method composing text owns every key.
  if (!e.ctrlKey || e.altKey || e.metaKey || e.shiftKey || e.isComposing) return null;
  const key = keyOf(e);
  if (key === 'q') return 'quit';
  if (key === 'w') return 'close';
  const n = Number(key);
  if (/^\d$/.test(key) && n >= 1 && n <= paneCount) return { pane: n - 1 };
  return null;
}

/**
 * frontDialog is the open dialog in front: the one holding the focus (the
 * innermost, when one dialog opened another inside it), else the last one
 * opened in the page's order; null when no dialog is open.
 */
export function frontDialog(doc: Document): HTMLDialogElement | null {
  const open = [...doc.querySelectorAll<HTMLDialogElement>('dialog[open]')];
  for (let i = open.length - 1; i >= 0; i--) {
    if (open[i].contains(doc.activeElement)) return open[i];
  }
  return open.at(-1) ?? null;
}

/** cancelDialog closes a dialog as Escape does: a `cancel` event first, which may keep it open. */
export function cancelDialog(dialog: HTMLDialogElement): void {
  if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
}

/** What the shortcuts do; the window gives them. */
export interface ShortcutActions {
  /** Opens the pane at this place in the sidebar (0-based). */
  pane(index: number): void;
  /** Quits Gatehouse. */
  quit(): void;
}

/** listenForShortcuts handles the window's shortcuts on win until the returned function is called. */
export function listenForShortcuts(win: Window, actions: ShortcutActions): () => void {
  const onKeydown = (e: KeyboardEvent) => {
    if (e.defaultPrevented) return;
    const shortcut = shortcutOf(e);
    if (!shortcut) return;
    const dialog = frontDialog(win.document);
    if (shortcut === 'quit') {
      e.preventDefault();
      actions.quit();
    } else if (shortcut === 'close') {
      e.preventDefault();
      if (dialog) cancelDialog(dialog);
    } else if (!dialog) {
      e.preventDefault();
      actions.pane(shortcut.pane);
    }
  };
  win.addEventListener('keydown', onKeydown);
  return () => win.removeEventListener('keydown', onKeydown);
}
