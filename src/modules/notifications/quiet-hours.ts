/**
 * Quiet hours, pure: no I/O, no clock. A window is two wall-clock times (`HH:MM`, 24-hour) in an IANA zone; an
 * instant is quiet when the zone's clock at that instant reads a time inside the window. Reading the zone's own clock
 * (never a fixed offset, never comparing in UTC) is what keeps the window right on both sides of a daylight-saving
 * change:
 * - a window that starts inside a spring-forward gap (02:30 on a day the clock jumps 02:00 -> 03:00) starts when the
 *   clock jumps past its start; a window ending inside the gap ends at the jump;
 * - in a fall-back overlap the clock reads 01:00-02:00 twice, and both readings are quiet when 01:30 is;
 * - an end earlier than the start wraps midnight (22:00-07:00 is quiet from 22:00 until 07:00 the next morning);
 * - start equal to end is the whole day (quiet around the clock): the window runs from its start for 24 hours.
 * Seconds count: 21:59:59 is not yet inside a window starting at 22:00; the end is exclusive (07:00 is not quiet).
 */

/** `HH:MM`, 24-hour, two digits each: 00:00 to 23:59. Nothing else (no 24:00, no 7:00, no seconds). */
export const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an `HH:MM` time, or null when it is not one. */
export function minutesOfClockTime(value: string): number | null {
  const m = CLOCK_TIME.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than using it. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // h23: Node 20's `hour12: false` reads midnight as "24".
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size > 1000) formatters.clear(); // zones are a closed set; this only bounds a misuse
    formatters.set(zone, f);
  }
  return f;
}

/** Seconds after local midnight that the zone's clock reads at `instant`. */
export function localSecondsOfDay(instant: Date, zone: string): number {
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatterFor(zone).formatToParts(instant)) {
    if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
    else if (part.type === 'second') second = Number(part.value);
  }
  return hour * 3600 + minute * 60 + second;
}

/**
 * True when `instant` falls inside the window `start`-`end` (`HH:MM`) on the clock of `zone` (a canonical IANA
 * zone). Throws on a malformed time: stored windows are validated on the way in, so that is a bug, not a user error.
 */
export function inQuietHours(instant: Date, start: string, end: string, zone: string): boolean {
  const from = minutesOfClockTime(start);
  const to = minutesOfClockTime(end);
  if (from === null || to === null) throw new Error(`quiet hours: malformed window ${start}-${end}`);
  const day = 24 * 3600;
  const length = ((to - from + 24 * 60) % (24 * 60)) * 60 || day; // start == end: the whole day
  const sinceStart = (localSecondsOfDay(instant, zone) - from * 60 + day) % day;
  return sinceStart < length;
}
