// Newest answer wins: when asks to Go overlap (a filter typed on while a read
// runs, a check per keystroke), an older answer that comes back late must not
// overwrite a newer one.

/** Tells whether the ask it was made for is still the newest of its key. */
export type Guard = () => boolean;

/**
 * Returns a function that starts an ask (per key; one key when none is
 * given) and returns its guard: true until a newer ask of the same key
 * starts. Starting one and dropping its guard makes an ask on its way stale.
 */
export function latest(): (key?: string) => Guard {
  const newest = new Map<string, number>();
  return (key = '') => {
    const mine = (newest.get(key) ?? 0) + 1;
    newest.set(key, mine);
    return () => newest.get(key) === mine;
  };
}

/**
 * Returns a function that tells whether a version Go gave a list it read
 * (app.ServerList, app.ProviderList) is newer than every one seen so far,
 * and then remembers it. Events may reach the window out of order: a list
 * older than the one shown must not replace it.
 */
export function newestVersion(): (version: number) => boolean {
  let seen = 0;
  return (version) => {
    if (version <= seen) return false;
    seen = version;
    return true;
  };
}
