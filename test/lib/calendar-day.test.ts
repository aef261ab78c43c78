import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calendarDay } from '../../src/lib/clock.ts';

const ZONES = [
  'Australia/Sydney',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'UTC',
];
const fresh = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

describe('calendarDay: the local calendar day allowances count in', () => {
  it('answers what a fresh formatter answers, in any order of instants and zones', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // 2020-2035, to the millisecond; nearby instants are drawn too, so one minute is asked twice
            at: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }),
            nudge: fc.integer({ min: -90_000, max: 90_000 }),
            zone: fc.constantFrom(...ZONES),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (asks) => {
          for (const { at, nudge, zone } of asks)
            for (const t of [at, at + nudge]) expect(calendarDay(new Date(t), zone)).toBe(fresh(new Date(t), zone));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('turns over at local midnight, to the millisecond (Sydney, the day daylight saving starts)', () => {
    // 2026-10-04 00:00 in Sydney is 2026-10-03 14:00 UTC (AEST, +10:00)
    const midnight = Date.UTC(2026, 9, 3, 14, 0, 0);
    expect(calendarDay(new Date(midnight - 1), 'Australia/Sydney')).toBe('2026-10-03');
    expect(calendarDay(new Date(midnight), 'Australia/Sydney')).toBe('2026-10-04');
    expect(calendarDay(new Date(midnight - 1), 'Australia/Sydney')).toBe('2026-10-03');
  });

  it('turns over within a UTC hour where the offset is a half hour (Adelaide, +10:30)', () => {
    const midnight = Date.UTC(2026, 10, 25, 13, 30); // 2026-11-26 00:00 in Adelaide (ACDT)
    expect(calendarDay(new Date(midnight - 60_000), 'Australia/Adelaide')).toBe('2026-11-25');
    expect(calendarDay(new Date(midnight + 60_000), 'Australia/Adelaide')).toBe('2026-11-26');
  });

  it('keeps zones apart: the same instant is two different days', () => {
    const at = new Date(Date.UTC(2026, 10, 25, 13, 30));
    expect(calendarDay(at, 'Australia/Sydney')).toBe('2026-11-26');
    expect(calendarDay(at, 'UTC')).toBe('2026-11-25');
    expect(calendarDay(at, 'Australia/Sydney')).toBe('2026-11-26');
  });
});
