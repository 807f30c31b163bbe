// Reading the Settings page's "Saved" notes (SavedNote.svelte) in component tests.

/** What the "Saved" note of a control says to a screen reader (its tick is hidden from them), by its key. */
export function savedNote(key: string): string {
  const note = document.querySelector(`[data-saved-for="${key}"]`)?.cloneNode(true) as HTMLElement | undefined;
  if (!note) return '(no note)';
  note.querySelectorAll('[aria-hidden="true"]').forEach((el) => el.remove());
  return note.textContent?.trim() ?? '';
}

/** The text an element points to with aria-describedby: what a screen reader says after its name. */
export function description(el: Element): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}
