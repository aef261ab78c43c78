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
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** One formatter per zone: building one costs about 50 times formatting with it, and every metered run needs one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
