/**
 * The credential's validity window (W3C VC 2.0 `validFrom` / `validUntil`): a problem message when
 * it does not include `now`, or when a bound is present but not a date-time.
 */
export const validityProblem = (credential: Record<string, unknown>, now: Date): string | undefined => {
  const bound = (name: 'validFrom' | 'validUntil') => {
    const value = credential[name];
    if (value === undefined) return undefined;
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isNaN(time) ? name : time;
  };
  const from = bound('validFrom');
  const until = bound('validUntil');
  if (typeof from === 'string') return 'validFrom is not a date-time';
  if (typeof until === 'string') return 'validUntil is not a date-time';
  if (from !== undefined && from > now.getTime()) return `The credential is not valid before ${new Date(from).toISOString()}`;
  if (until !== undefined && until < now.getTime()) return `The credential expired at ${new Date(until).toISOString()}`;
  return undefined;
};
