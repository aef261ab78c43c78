/**
 * Generation stamps: scratch arrays reused by every call of a synchronous engine, where an entry counts as set only
 * when it equals the call's generation, so nothing is cleared between calls. The pricing index's seen-brackets and
 * seen-products, the criteria table's coverage and the Matrix Calculator join's id table all work this way.
 */

/** The last generation a Uint32Array entry can hold before the counter would wrap to the empty stamp, 0. */
const LAST_GENERATION = 0xfffffffe;

/**
 * The next generation of `holder`'s stamps (one or two arrays sharing it). Once in ~4 billion calls the counter
 * would outgrow an entry: then the arrays are cleared and counting starts again, so a stale entry can never match.
 * A holder whose arrays were just replaced by new (zeroed) ones may restart at 0 itself.
 */
export function nextGeneration(holder: { generation: number }, stamps: Uint32Array, alsoStamps?: Uint32Array): number {
  if (holder.generation >= LAST_GENERATION) {
    stamps.fill(0);
    alsoStamps?.fill(0);
    holder.generation = 0;
  }
  return ++holder.generation;
}
