// What the window's first frame shows that only Go knows, written by Go
// into the page it serves (app/startpage.go: a <script type="application/json">
// data element, which the engine never runs), so that the first frame waits
// for no call to Go. Outside the app, and if Go could not read it, there is
// none and each store asks Go as it did before.

import type { LanguageView, ServerList, ThemeView } from './api';

/** Go's StartView. */
export type StartView = {
  language: LanguageView;
  theme: ThemeView;
  servers: ServerList;
  welcomeDismissed: boolean;
};

/** The id of the data element (app/startpage.go's startViewID). */
export const startViewID = 'gatehouse-start';

/**
 * Reads the start view once and removes its element: it describes the
 * moment the page was served, and the stores follow Go from then on.
 */
export function takeStartView(doc: Document = document): StartView | null {
  const el = doc.getElementById(startViewID);
  if (!el) return null;
  el.remove();
  try {
    const v = JSON.parse(el.textContent ?? '') as StartView;
    return v && typeof v === 'object' && Array.isArray(v.servers?.servers) ? v : null;
  } catch {
    return null;
  }
}
