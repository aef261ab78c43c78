/**
 * Size knobs for the suite's long loops (random instants, generated cases, race rounds): CI (CI=true) runs the full
 * sizes; a local `npm test` a share of them, so the suite stays quick where people wait for it. TEST_SCALE overrides
 * either (1: the full sizes locally; 5: a longer hunt). Every loop keeps at least its floor.
 */
export const TEST_SCALE = Number(process.env.TEST_SCALE ?? (process.env.CI === 'true' ? 1 : 0.1));
if (!(TEST_SCALE > 0)) throw new Error(`TEST_SCALE=${process.env.TEST_SCALE}: expected a number above 0`);

/** `full` (CI's size) scaled by TEST_SCALE, at least `floor`. */
export function sized(full: number, floor = 1): number {
  return Math.max(floor, Math.round(full * TEST_SCALE));
}

/**
 * Rounds of a race test: every round on PostgreSQL (TEST_DATABASE_URL), where each round may interleave differently;
 * on PGlite, whose one connection runs the racers one after another the same way each time, the scaled share.
 */
export function raceRounds(full: number): number {
  return process.env.TEST_DATABASE_URL ? full : sized(full);
}
