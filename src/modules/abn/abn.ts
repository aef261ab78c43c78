/**
 * ABN rules and the ABN Lookup answer, with no I/O: normalising and checking an ABN, whole months between two
 * calendar dates, and reading (and distrusting) the register's JSONP body. The HTTP call is in service.ts.
 */

/** Business names kept from one record: the register lists a handful; the rest of a longer list is dropped. */
export const ABN_BUSINESS_NAMES_MAX = 100;

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/** Strips whitespace: "51 824 753 556" reads as "51824753556". Nothing else is forgiven. */
export function normaliseAbn(raw: string): string {
  return raw.replace(/\s+/g, '');
}

/**
 * The ABN checksum (Australian Business Register): subtract 1 from the first digit, weight the eleven digits by
 * 10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, and the sum must divide by 89. Expects a normalised ABN.
 */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (Number(abn[i]) - (i === 0 ? 1 : 0)) * ABN_WEIGHTS[i];
  return sum % 89 === 0;
}

export type AbnCheck = { ok: true; abn: string } | { ok: false; message: string };

/** Normalises, then checks form and checksum; the message names what is wrong, for the 400 on `abn`. */
export function checkAbn(raw: string): AbnCheck {
  const abn = normaliseAbn(raw);
  if (abn === '') return { ok: false, message: 'This field may not be blank.' };
  if (!/^\d{11}$/.test(abn)) return { ok: false, message: 'An ABN is 11 digits.' };
  if (!isValidAbn(abn)) return { ok: false, message: 'This is not a valid ABN (the check digits do not match).' };
  return { ok: true, abn };
}

// ---------------------------------------------------------------------------------------------
// Calendar dates
// ---------------------------------------------------------------------------------------------

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A real calendar date written YYYY-MM-DD, or null. */
function parseIsoDate(value: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/**
 * Whole months from `from` to `to` (both YYYY-MM-DD), rounded down. A month is complete on the same day of the
 * month, or on the last day of a month too short to have that day: 2024-01-31 to 2024-02-29 is 1 month, to
 * 2024-02-28 is 0; 2020-02-29 to 2021-02-28 is 12. `to` before `from` gives 0 (a date in the future is not an age).
 */
export function monthsBetween(from: string, to: string): number {
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  if (!a || !b) throw new RangeError(`monthsBetween: expected YYYY-MM-DD dates, got "${from}" and "${to}"`);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  const anniversaryDay = Math.min(a.day, daysInMonth(b.year, b.month));
  if (b.day < anniversaryDay) months -= 1;
  return Math.max(0, months);
}

// ---------------------------------------------------------------------------------------------
// The register's answer
// ---------------------------------------------------------------------------------------------

/** The fields of ABN Lookup's AbnDetails answer we use, checked and tidied ("" and null read as null). */
export interface AbnRecord {
  abn: string;
  abnStatus: string;
  /** AbnStatusEffectiveFrom: when the current status took effect (for an active ABN, when it became active). */
  abnStatusEffectiveFrom: string;
  entityName: string;
  entityTypeName: string | null;
  /** Gst: the date GST registration took effect, or null when not registered for GST. */
  gstFrom: string | null;
  businessNames: string[];
  state: string | null;
  postcode: string | null;
}

export type AbnAnswer =
  | { kind: 'found'; record: AbnRecord }
  | { kind: 'not_found'; message: string }
  /** The register answered with an error of its own that is not "no record" (e.g. an unrecognised GUID). */
  | { kind: 'refused'; message: string }
  /** Not JSONP/JSON, not an object, or a field of the wrong type: the answer cannot be trusted. */
  | { kind: 'invalid'; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `c({...})` (with or without a trailing semicolon), or a bare JSON object. */
export function unwrapJsonp(body: string, callback = 'c'): unknown {
  const text = body.replace(/^\uFEFF/, '').trim();
  const prefix = `${callback}(`;
  let json = text;
  if (text.startsWith(prefix)) {
    const end = text.replace(/;\s*$/, '').trimEnd();
    if (!end.endsWith(')')) throw new SyntaxError('JSONP body without its closing parenthesis');
    json = end.slice(prefix.length, -1);
  }
  return JSON.parse(json);
}

/** Reads the register's body. Never throws: everything it cannot trust comes back as `invalid`. */
export function parseAbnDetails(body: string, callback = 'c'): AbnAnswer {
  let value: unknown;
  try {
    value = unwrapJsonp(body, callback);
  } catch {
    return { kind: 'invalid', reason: 'unparsable' };
  }
  if (!isRecord(value)) return { kind: 'invalid', reason: 'not an object' };

  // Optional text: a string, or null/absent; "" reads as null.
  const text = (key: string): string | null | undefined => {
    const v = value[key];
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string') return undefined; // wrong type
    const t = v.trim();
    return t === '' ? null : t;
  };
  const fields = [
    'Abn',
    'Message',
    'AbnStatus',
    'AbnStatusEffectiveFrom',
    'EntityName',
    'EntityTypeName',
    'Gst',
    'AddressState',
    'AddressPostcode',
  ] as const;
  const got = {} as Record<(typeof fields)[number], string | null>;
  for (const key of fields) {
    const v = text(key);
    if (v === undefined) return { kind: 'invalid', reason: `${key} is not a string` };
    got[key] = v;
  }

  if (got.Message !== null) {
    if (/guid/i.test(got.Message)) return { kind: 'refused', message: got.Message };
    if (got.Abn === null || /no record|not found|not a valid/i.test(got.Message))
      return { kind: 'not_found', message: got.Message };
    return { kind: 'refused', message: got.Message };
  }
  if (got.Abn === null) return { kind: 'not_found', message: 'No record found' };

  if (!/^\d{11}$/.test(got.Abn)) return { kind: 'invalid', reason: 'Abn is not 11 digits' };
  if (got.AbnStatus === null) return { kind: 'invalid', reason: 'AbnStatus is missing' };
  if (got.EntityName === null) return { kind: 'invalid', reason: 'EntityName is missing' };
  // Dates: YYYY-MM-DD, tolerating a time part the service has been seen to append.
  const date = (v: string | null): string | null | undefined => {
    if (v === null) return null;
    const day = v.slice(0, 10);
    if (!parseIsoDate(day) || !/^(T[\d:.]*)?$/.test(v.slice(10))) return undefined;
    return day;
  };
  const effectiveFrom = date(got.AbnStatusEffectiveFrom);
  if (!effectiveFrom) return { kind: 'invalid', reason: 'AbnStatusEffectiveFrom is not a date' };
  const gstFrom = date(got.Gst);
  if (gstFrom === undefined) return { kind: 'invalid', reason: 'Gst is not a date' };

  const names = value.BusinessName;
  let businessNames: string[] = [];
  if (names !== null && names !== undefined) {
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
      return { kind: 'invalid', reason: 'BusinessName is not a list of strings' };
    businessNames = names
      .map((n: string) => n.trim())
      .filter((n) => n !== '')
      .slice(0, ABN_BUSINESS_NAMES_MAX);
  }

  return {
    kind: 'found',
    record: {
      abn: got.Abn,
      abnStatus: got.AbnStatus,
      abnStatusEffectiveFrom: effectiveFrom,
      entityName: got.EntityName,
      entityTypeName: got.EntityTypeName,
      gstFrom,
      businessNames,
      state: got.AddressState,
      postcode: got.AddressPostcode,
    },
  };
}

/** Is this status "Active" (the register's word), whatever its case. */
export function isActiveStatus(status: string): boolean {
  return status.trim().toLowerCase() === 'active';
}
