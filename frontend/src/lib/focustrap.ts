// Keeping the keyboard inside a modal dialog.
//
// showModal makes the rest of the page inert, but Tab from a dialog's last
// control does not come back to its first: Chromium moves on to the
// browser's own controls, and a webview to nothing a person can see, so
// someone on the keyboard loses the dialog they must answer. trapTab wraps
// Tab from the last stop to the first and Shift+Tab from the first to the
// last; between them the engine's own order applies.

/** What may take focus with Tab; tabStops filters out what cannot right now. */
const candidates = 'a[href], button, input, select, textarea, summary, [tabindex]';

function shown(el: HTMLElement): boolean {
  if (typeof el.checkVisibility === 'function') return el.checkVisibility({ visibilityProperty: true });
  return el.getClientRects().length > 0; // an engine older than checkVisibility
}

function isRadio(el: Element | null): el is HTMLInputElement {
  return el instanceof HTMLInputElement && el.type === 'radio' && el.name !== '';
}

/** Whether a and b are the same Tab stop: one element, or two radio buttons of one group. */
function sameStop(a: Element, b: Element | null): boolean {
  if (a === b) return true;
  return isRadio(a) && isRadio(b) && a.name === b.name && a.form === b.form;
}

/** The elements Tab stops at inside root, in document order; a radio group is one stop. */
export function tabStops(root: HTMLElement): HTMLElement[] {
  const stops: HTMLElement[] = [];
  for (const el of root.querySelectorAll<HTMLElement>(candidates)) {
    if (el.tabIndex < 0 || el.closest('[inert]') || !shown(el)) continue;
    if ('disabled' in el && el.disabled === true) continue;
    if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
    if (stops.some((s) => sameStop(s, el))) continue;
    stops.push(el);
  }
  return stops;
}

/**
 * Focuses a stop as Tab would: a radio group on its chosen button, or, with
 * none chosen, on its first (its last when going backwards).
 */
export function focusStop(stop: HTMLElement, backwards = false, options?: FocusOptions): void {
  let target = stop;
  if (isRadio(stop)) {
    const group = [...(stop.form ?? stop.ownerDocument).querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
      (r) => sameStop(stop, r) && !r.disabled,
    );
    target = group.find((r) => r.checked) ?? (backwards ? group[group.length - 1] : group[0]) ?? stop;
  }
  target.focus(options);
}

/** On Tab inside root: wraps around at the ends so that focus never leaves root. */
export function trapTab(e: KeyboardEvent, root: HTMLElement): void {
  const stops = tabStops(root);
  if (stops.length === 0) {
    e.preventDefault();
    return;
  }
  const active = root.ownerDocument.activeElement;
  const at = stops.findIndex((s) => sameStop(s, active));
  if (e.shiftKey && at <= 0) {
    e.preventDefault();
    focusStop(stops[stops.length - 1], true);
  } else if (!e.shiftKey && (at < 0 || at === stops.length - 1)) {
    e.preventDefault();
    focusStop(stops[0]);
  }
}
