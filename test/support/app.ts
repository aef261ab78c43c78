/** Moved to testkit/app.ts (shared with bench/). Kept as a re-export for test files written before the move. */
export * from '../../testkit/app.ts';
