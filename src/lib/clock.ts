/** Time is injected so the refresh grace window, idle timeout and daily allowances can be tested exactly. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
}

/** The calendar day (YYYY-MM-DD) of `at` in `timeZone`: allowances reset at local midnight. */
export function calendarDay(at: Date, timeZone: string): string {
  let zone = dayFormats.get(timeZone);
  if (!zone) {
    zone = {
      format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
      minute: Number.NaN,
      day: '',
    };
    dayFormats.set(timeZone, zone);
  }
  // Every zone's offset today is a whole number of minutes and changes on a minute boundary, so one minute has one day:
  // the day is formatted once per minute per zone, not on every metered run.
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== zone.minute) {
    zone.day = zone.format.format(at);
    zone.minute = minute;
  }
  return zone.day;
}

/** One formatter per zone (building one costs far more than formatting with it), with the last minute it formatted. */
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; minute: number; day: string }>();
