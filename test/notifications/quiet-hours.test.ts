/**
 * Spec: Events ("a push that falls within the user's quiet hours is dropped"); Notification preferences
 * (quiet_hours_start/end are local times in `timezone`; an end earlier than the start wraps midnight).
 * The engine is checked against an independent oracle (luxon's zone arithmetic, and the window written as cases
 * rather than modular arithmetic) over random instants, oversampling daylight-saving transition days.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { inQuietHours, localSecondsOfDay, minutesOfClockTime } from '../../src/modules/notifications/quiet-hours.ts';
import { canonicalTimeZone, ICU_LEGACY_ZONE_NAMES } from '../../src/modules/notifications/timezone.ts';
import { seededRandom } from '../../testkit/random.ts';
import { sized } from '../../testkit/sizes.ts';

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The oracle: luxon reads the zone's clock; the window is spelled case by case. */
function oracle(instant: number, start: string, end: string, zone: string): boolean {
  const local = DateTime.fromMillis(instant, { zone });
  const t = local.hour * 3600 + local.minute * 60 + local.second;
  const [sh, sm] = start.split(':').map(Number);
  const [eh, em] = end.split(':').map(Number);
  const s = sh * 3600 + sm * 60;
  const e = eh * 3600 + em * 60;
  if (s === e) return true; // the whole day
  if (s < e) return t >= s && t < e;
  return t >= s || t < e; // wraps midnight
}

const at = (iso: string) => new Date(iso);

describe('quiet hours read the zone’s own clock (examples)', () => {
  it('a window that wraps midnight: 22:00-07:00 in Sydney', () => {
    // 2026-01-15 is summer in Sydney (UTC+11).
    expect(inQuietHours(at('2026-01-15T10:59:59Z'), '22:00', '07:00', 'Australia/Sydney')).toBe(false); // 21:59:59
    expect(inQuietHours(at('2026-01-15T11:00:00Z'), '22:00', '07:00', 'Australia/Sydney')).toBe(true); // 22:00
    expect(inQuietHours(at('2026-01-15T19:59:59Z'), '22:00', '07:00', 'Australia/Sydney')).toBe(true); // 06:59:59
    expect(inQuietHours(at('2026-01-15T20:00:00Z'), '22:00', '07:00', 'Australia/Sydney')).toBe(false); // 07:00
  });

  it('a window that does not wrap: 09:00-17:00 in New York, either side of the March change', () => {
    expect(inQuietHours(at('2026-03-07T14:00:00Z'), '09:00', '17:00', 'America/New_York')).toBe(true); // 09:00 EST
    expect(inQuietHours(at('2026-03-09T13:00:00Z'), '09:00', '17:00', 'America/New_York')).toBe(true); // 09:00 EDT
    expect(inQuietHours(at('2026-03-09T12:59:00Z'), '09:00', '17:00', 'America/New_York')).toBe(false); // 08:59 EDT
  });

  it('a window starting inside a spring-forward gap starts when the clock jumps past it', () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT at 07:00Z.
    expect(inQuietHours(at('2026-03-08T06:59:59Z'), '02:30', '04:00', 'America/New_York')).toBe(false); // 01:59:59
    expect(inQuietHours(at('2026-03-08T07:00:00Z'), '02:30', '04:00', 'America/New_York')).toBe(true); // 03:00
  });

  it('in a fall-back overlap both readings of 01:30 are quiet', () => {
    // London, 2026-10-25: 02:00 BST becomes 01:00 GMT; 01:30 happens at 00:30Z and at 01:30Z.
    expect(inQuietHours(at('2026-10-25T00:30:00Z'), '01:15', '01:45', 'Europe/London')).toBe(true);
    expect(inQuietHours(at('2026-10-25T01:30:00Z'), '01:15', '01:45', 'Europe/London')).toBe(true);
    expect(inQuietHours(at('2026-10-25T01:00:00Z'), '01:15', '01:45', 'Europe/London')).toBe(false); // 01:00 GMT
  });

  it('Lord Howe moves its clock by 30 minutes', () => {
    // 2026-04-05 02:00 (+11) becomes 01:30 (+10:30) at 15:00Z on the 4th.
    expect(inQuietHours(at('2026-04-04T14:45:00Z'), '01:30', '02:00', 'Australia/Lord_Howe')).toBe(true); // 01:45 +11
    expect(inQuietHours(at('2026-04-04T15:15:00Z'), '01:30', '02:00', 'Australia/Lord_Howe')).toBe(true); // 01:45 +10:30
    expect(inQuietHours(at('2026-04-04T15:35:00Z'), '01:30', '02:00', 'Australia/Lord_Howe')).toBe(false); // 02:05
  });

  it('Kathmandu is UTC+5:45', () => {
    expect(inQuietHours(at('2026-06-01T16:15:00Z'), '22:00', '06:00', 'Asia/Kathmandu')).toBe(true); // 22:00
    expect(inQuietHours(at('2026-06-01T16:14:59Z'), '22:00', '06:00', 'Asia/Kathmandu')).toBe(false);
  });

  it('Kolkata (stored as Asia/Kolkata, which Node 20’s ICU calls Asia/Calcutta) is UTC+5:30', () => {
    const zone = canonicalTimeZone('Asia/Calcutta')!;
    expect(zone).toBe('Asia/Kolkata');
    expect(inQuietHours(at('2026-06-01T16:30:00Z'), '22:00', '06:00', zone)).toBe(true); // 22:00
    expect(inQuietHours(at('2026-06-01T16:29:59Z'), '22:00', '06:00', zone)).toBe(false);
  });

  it('start equal to end is the whole day', () => {
    for (const iso of ['2026-01-01T00:00:00Z', '2026-06-30T12:34:56Z', '2026-10-04T16:00:00Z'])
      expect(inQuietHours(at(iso), '08:00', '08:00', 'Australia/Sydney')).toBe(true);
  });

  it('refuses a malformed window (stored windows are validated on the way in)', () => {
    expect(() => inQuietHours(new Date(), '7:00', '08:00', 'UTC')).toThrow();
    expect(minutesOfClockTime('24:00')).toBeNull();
    expect(minutesOfClockTime('23:59')).toBe(23 * 60 + 59);
  });
});

describe('zones are stored under IANA’s current name, and quiet hours read the same clock under it', () => {
  it.each(Object.entries(ICU_LEGACY_ZONE_NAMES))(
    '%s is stored as %s, whose clock is the old name’s',
    (old, current) => {
      expect(canonicalTimeZone(old)).toBe(current);
      expect(canonicalTimeZone(current)).toBe(current);
      expect(canonicalTimeZone(current.toLowerCase())).toBe(current);
      // The oracle reads the old name's clock; every 7 hours from 2018 to 2032 meets each daylight-saving change.
      const mismatches: string[] = [];
      for (let instant = Date.UTC(2018, 0, 1); instant < Date.UTC(2032, 0, 1); instant += 7 * 3600_000) {
        const local = DateTime.fromMillis(instant, { zone: old });
        const expected = local.hour * 3600 + local.minute * 60 + local.second;
        if (localSecondsOfDay(new Date(instant), current) !== expected && mismatches.length < 3)
          mismatches.push(new Date(instant).toISOString());
      }
      expect(mismatches).toEqual([]);
    },
  );
});

/** Zones with daylight saving, half-hour and odd offsets, southern and northern hemispheres. */
const DST_ZONES = [
  'Australia/Sydney',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Pacific/Chatham',
  'America/St_Johns',
  'Europe/Berlin',
  'America/Los_Angeles',
  'Pacific/Auckland',
  'Asia/Tehran',
  'Africa/Cairo',
];
const OTHER_ZONES = ['Asia/Kathmandu', 'Asia/Kolkata', 'UTC', 'Australia/Adelaide', 'Australia/Darwin', 'Asia/Tokyo'];

/** Every instant in [from, to) at which `zone`'s offset changes, found by a 12-hour scan then bisection. */
function transitions(zone: string, from: number, to: number): number[] {
  const out: number[] = [];
  const offset = (ms: number) => DateTime.fromMillis(ms, { zone }).offset;
  const step = 12 * 3600_000;
  for (let t = from; t < to; t += step) {
    if (offset(t) !== offset(t + step)) {
      let lo = t;
      let hi = t + step;
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2);
        if (offset(mid) === offset(lo)) lo = mid;
        else hi = mid;
      }
      out.push(hi);
    }
  }
  return out;
}

describe('quiet hours agree with an independent oracle (TZ1)', () => {
  // 100,000 in CI; a local run checks a share (testkit/sizes.ts).
  it(`0 mismatches over ${sized(100_000, 10_000)} random instants, windows and zones, half of them on transition days`, () => {
    const random = seededRandom(20261123);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const allZones = Intl.supportedValuesOf('timeZone');
    const from = Date.UTC(2018, 0, 1);
    const to = Date.UTC(2032, 0, 1);
    const changes = new Map(DST_ZONES.map((z) => [z, transitions(z, from, to)]));
    expect([...changes.values()].every((list) => list.length >= 2)).toBe(true);
    // Windows near the hours clocks change at, and any minute of the day; equal ends sometimes.
    const nearChange = [0, 60, 90, 105, 120, 150, 165, 180, 210, 1410, 1440 - 30].map((m) => m % 1440);
    const minute = () =>
      random() < 0.5
        ? pick(nearChange) + Math.floor(random() * 3) * (random() < 0.5 ? 1 : -1)
        : Math.floor(random() * 1440);

    const canonicalOf = new Map<string, string | null>();
    const N = sized(100_000, 10_000);
    const mismatches: string[] = [];
    for (let i = 0; i < N; i++) {
      let zone: string;
      let instant: number;
      if (i % 2 === 0) {
        zone = pick(DST_ZONES);
        // Within 36 hours of a change (any second), so the window's edges meet the jump.
        instant = pick(changes.get(zone)!) + Math.floor((random() * 2 - 1) * 36 * 3600) * 1000;
      } else {
        zone = random() < 0.5 ? pick(OTHER_ZONES) : pick(allZones);
        instant = from + Math.floor(random() * (to - from));
      }
      const start = hhmm((minute() + 1440) % 1440);
      const end = random() < 0.05 ? start : hhmm((minute() + 1440) % 1440);
      if (!canonicalOf.has(zone)) canonicalOf.set(zone, canonicalTimeZone(zone));
      const canonical = canonicalOf.get(zone);
      if (!canonical) throw new Error(`zone ${zone} not accepted`);
      const ours = inQuietHours(new Date(instant), start, end, canonical);
      const theirs = oracle(instant, start, end, zone);
      if (ours !== theirs && mismatches.length < 10)
        mismatches.push(`${new Date(instant).toISOString()} ${zone} ${start}-${end}: ours ${ours}, oracle ${theirs}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('the oracle tells a wrong engine apart (the comparison above can fail)', () => {
  it('an engine that uses the zone’s January offset all year disagrees on transition days', () => {
    const fixedOffset = (instant: number, start: string, end: string, zone: string) => {
      const january = DateTime.fromMillis(Date.UTC(DateTime.fromMillis(instant).year, 0, 1), { zone }).offset;
      return oracle(instant + january * 60_000, start, end, 'UTC'); // the clock read at a fixed offset
    };
    const random = seededRandom(7);
    let mismatches = 0;
    for (let i = 0; i < 5000; i++) {
      const instant = Date.UTC(2026, 6, 1) + Math.floor(random() * 30 * 86_400_000); // July: DST in New York
      const start = hhmm(Math.floor(random() * 1440));
      const end = hhmm(Math.floor(random() * 1440));
      if (fixedOffset(instant, start, end, 'America/New_York') !== oracle(instant, start, end, 'America/New_York'))
        mismatches++;
    }
    expect(mismatches).toBeGreaterThan(0);
  });
});
