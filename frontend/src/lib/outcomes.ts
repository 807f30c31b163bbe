// Outcomes of a request or a tool run, as stored in the history (store/types.go), in words.
// A Go test (store/frontend_test.go) fails when this list and the store's differ.

import { t, type MessageKey } from './i18n.svelte';

const outcomeKeys: Record<string, MessageKey> = {
  accepted: 'outcome.accepted',
  declined: 'outcome.declined',
  cancelled: 'outcome.cancelled',
  timed_out: 'outcome.timedOut',
  rate_limited: 'outcome.rateLimited',
  invalid: 'outcome.invalid',
  server_cancelled: 'outcome.serverCancelled',
  ok: 'outcome.ok',
  error: 'outcome.error',
  denied: 'outcome.denied',
};

/** The stored outcomes, in the order the history's filter lists them. */
export const outcomes = Object.keys(outcomeKeys);

/** An outcome in words, in the window's language. */
export function outcomeLabel(o: string): string {
  return o in outcomeKeys ? t(outcomeKeys[o]) : o;
}

/** "4.2 s", "3 min 5 s": how long the person took to answer. */
export function duration(ms: number): string {
  if (!ms || ms < 0) return '';
  if (ms < 1000) return t('units.ms', { n: ms });
  const s = ms / 1000;
  if (s < 60) return t('units.s', { n: s.toFixed(s < 10 ? 1 : 0) });
  const m = Math.floor(s / 60);
  return t('units.minS', { m, s: Math.round(s - m * 60) });
}
