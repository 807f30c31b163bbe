// Outcomes of a request or a tool run, as stored in the history (store/types.go), in words.

export const outcomeLabels: Record<string, string> = {
  accepted: 'Answered',
  declined: 'Declined',
  cancelled: 'Cancelled',
  timed_out: 'Timed out',
  rate_limited: 'Refused: too many requests',
  invalid: 'Refused: invalid request',
  server_cancelled: 'Withdrawn by the server',
  ok: 'Ran',
  error: 'Failed',
  denied: 'Not allowed',
};

export function outcomeLabel(o: string): string {
  return outcomeLabels[o] ?? o;
}

/** "4.2 s", "3 min 5 s": how long the person took to answer. */
export function duration(ms: number): string {
  if (!ms || ms < 0) return '';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}
