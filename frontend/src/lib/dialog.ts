// The keys every dialog of the window answers the same way (Dialog.svelte
// listens; this decides). Escape and Ctrl+W close a dialog; Enter on a
// checkbox or radio button submits it, as Enter in a text field does natively
// (a textarea keeps Enter for its new line, a button for pressing itself).

/** What a key pressed inside a dialog asks of it: close it, submit it, or nothing (the key is the control's own). */
export type DialogKeyAction = 'close' | 'submit' | null;

/** dialogKeyAction reads a keydown inside a dialog; the caller acts and prevents the key's default. */
export function dialogKeyAction(e: KeyboardEvent): DialogKeyAction {
  // A key that confirms or cancels an input method's composition (Chinese, Japanese…) belongs to the input method.
  if (e.isComposing || e.keyCode === 229) return null;
  const mod = e.ctrlKey || e.metaKey;
  if (e.key === 'Escape' && !mod && !e.altKey && !e.shiftKey) return 'close';
  // e.code too: the W key of a layout that does not write Latin letters.
  if (mod && !e.altKey && (e.key.toLowerCase() === 'w' || e.code === 'KeyW')) return 'close';
  if (e.key === 'Enter' && !mod && !e.altKey && !e.shiftKey && submitsOnEnter(e.target)) return 'submit';
  return null;
}

// The browser submits a form on Enter in a text field by itself; these are the controls where it does not
// but a desktop dialog's default button would.
function submitsOnEnter(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio');
}

/** focusFirstInvalid moves the focus to the first field marked invalid inside root (scrolling it into view); false when there is none. */
export function focusFirstInvalid(root: ParentNode): boolean {
  const field = root.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return false;
  field.focus();
  return true;
}
