/**
 * Time-zone names as requests send them. Any IANA zone the runtime's Intl knows is accepted (UTC, Etc/UTC and
 * Asia/Kolkata included: `Intl.supportedValuesOf('timeZone')` omits some of them on Node 20, so it is not the
 * test), and stored under the name Intl resolves it to, so one zone is stored one way whatever its spelling:
 * `utc` and `Etc/UTC` become `UTC`, `US/Eastern` becomes `America/New_York`. Which name ICU calls canonical depends
 * on its version (Node 20 answers `Asia/Calcutta` for `Asia/Kolkata`); either is a valid IANA name for the zone.
 * Offsets (`+05:30`, `UTC+10`) are refused even where a newer runtime's Intl accepts them: a fixed offset is wrong for
 * half the year wherever daylight saving applies.
 */

/** Longest zone name accepted; the longest IANA name is 32 characters (America/Argentina/ComodRivadavia). */
export const MAX_TIME_ZONE_LENGTH = 64;

/** IANA names: ASCII letters, digits, `_`, `-`, `+` and `/` (Etc/GMT+5), starting with a letter. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** The canonical name of `value`, or null when it is not an IANA zone this runtime knows. */
export function canonicalTimeZone(value: string): string | null {
  if (value.length > MAX_TIME_ZONE_LENGTH || !ZONE_NAME.test(value)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat(undefined, { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // A runtime that accepts offset zones resolves them to "+05:30"; those are not IANA zones.
  return ZONE_NAME.test(resolved) ? resolved : null;
}
