/**
 * Time-zone names as requests send them. Any IANA zone the runtime's Intl knows is accepted (UTC, Etc/UTC and
 * Asia/Kolkata included: `Intl.supportedValuesOf('timeZone')` omits some of them on Node 20, so it is not the
 * test), and stored under one canonical name whatever its spelling: Intl resolves aliases and case (`utc` and
 * `Etc/UTC` become `UTC`, `US/Eastern` becomes `America/New_York`), then ICU's legacy names are replaced by IANA's
 * current ones (ICU still calls Asia/Kolkata `Asia/Calcutta` on Node 20), so the stored name does not depend on the
 * runtime's ICU version. Offsets (`+05:30`, `UTC+10`) are refused even where a newer runtime's Intl accepts them: a
 * fixed offset is wrong for half the year wherever daylight saving applies.
 */

/** Longest zone name accepted; the longest IANA name is 32 characters (America/Argentina/ComodRivadavia). */
const MAX_TIME_ZONE_LENGTH = 64;

/** IANA names: ASCII letters, digits, `_`, `-`, `+` and `/` (Etc/GMT+5), starting with a letter. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/**
 * ICU's canonical name -> IANA's current name for the zones IANA renamed (ICU keeps the old name as canonical for
 * stability). Each pair is the same zone to ICU, so quiet hours read the same clock under either name.
 */
export const ICU_LEGACY_ZONE_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The canonical IANA name of `value`, or null when it is not an IANA zone this runtime knows. */
export function canonicalTimeZone(value: string): string | null {
  if (value.length > MAX_TIME_ZONE_LENGTH || !ZONE_NAME.test(value)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat(undefined, { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // A runtime that accepts offset zones resolves them to "+05:30"; those are not IANA zones.
  if (!ZONE_NAME.test(resolved)) return null;
  return Object.hasOwn(ICU_LEGACY_ZONE_NAMES, resolved) ? ICU_LEGACY_ZONE_NAMES[resolved] : resolved;
}
