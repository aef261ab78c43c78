/**
 * What one deal's structuring search borrows from its catalogue snapshot and gives back when it ends
 * (deal-work.fast.ts): the linked brackets' records, the repayment floors' table, the products' per-term tables and
 * their lines (product-line.fast.ts).
 * A slow deal reads thousands of each; made per deal, they would be kept to its end, so every young collection they
 * survive would move them. One deal holds them at a time: a deal made while another holds them makes its own.
 */
import type { RateBracket } from '../catalogue/index.ts';
import type { StructuringCatalogue } from './engine.ts';
import type { ProductLine, Reference, Thresholds } from './product-line.fast.ts';

/**
 * A linked bracket the search reads: its record, product and amount range, and what one deal learnt of it. Made by
 * `DealWork.linkedOf` only, with every field set, so every record has one shape; the fields after `generation` are the
 * deal's, set back on its first question (-1 and NaN: not asked yet).
 */
export interface Linked {
  id: number;
  bracket: RateBracket;
  productId: number;
  min: number;
  max: number;
  /** The lists its thresholds are written into and its reference, made with the record and reused by each deal. */
  ownThresholds: Thresholds;
  ownReference: Reference;
  /** The number of the deal whose record it is now (-1: a record of a deal's own, not the scratch's). */
  generation: number;
  /** Its deposit thresholds, once its product priced some (wait, term). */
  thresholds: Thresholds | null;
  /** Where its thresholds were read (its product prices there). */
  reference: Reference | null;
  /**
   * False when it prices no change of this deal (`bracketAdmits`: its asset, type, financier, asset age or LVR refuse
   * the deal, and no lever or wait moves them).
   */
  admitted: boolean;
  /**
   * Whether its amount range can meet any deposit a search tries (`DealWork.reaches`): 0 not asked yet, 1 yes, 2 no.
   */
  reach: number;
  /** Its product's per-term answer at the (wait, balloon) asked last (`DealWork.termsAt`); null: not asked yet. */
  termsWait: number;
  termsBalloon: number;
  terms: Int8Array | null;
  /** Its least floor at the (wait, balloon) asked last (`DealWork.leastFloorOf`). */
  leastWait: number;
  leastBalloon: number;
  least: number;
  /** The least amount financed any searched deposit gives it, in dollars (`DealWork.floorOf`). */
  leastAmount: number;
  /** Where its floors at the deal's balloon start in the floors' table (`DealWork.floorOf`). */
  floorStart: number;
  /** The deposits it adds to a search needing `addedMinimum` (`DealWork.addedOf`); null: none kept yet. */
  addedMinimum: number;
  added: number[] | null;
}

/**
 * `l`'s reference, (wait, term, balloon), while it has none: written into its own (`Linked.ownReference`), which a
 * deal sets once.
 */
export function referenceOf(l: Linked, wait: number, term: number, balloon: number): Reference {
  const r = l.reference === null ? l.ownReference : { wait, term, balloon };
  r.wait = wait;
  r.term = term;
  r.balloon = balloon;
  return r;
}

/** A snapshot's scratch: see the header. */
export interface Scratch {
  index: StructuringCatalogue['pricingIndex'];
  /** True while a deal holds it (`borrowScratch` to `giveBack`). */
  held: boolean;
  /** The number of the deal that holds it last: a record or table stamped with another is reset on first use. */
  generation: number;
  /** bracket id -> its record (null: unknown, or no product: the same for every deal). */
  records: Map<number, Linked | null>;
  /** The floors' table, and how much of it the last deal wrote (set back to NaN when it is borrowed). */
  floors: Float64Array;
  floorsUsed: number;
  /** product id -> the per-term tables of the first (wait, balloon) pairs a deal asks of it (`DealWork.termsOf`). */
  terms: Map<number, { generation: number; used: number; waits: number[]; balloons: number[]; tables: Int8Array[] }>;
  /** product id -> its line (`DealWork.thresholdsOf`), and the deal that wrote it last. */
  lines: Map<number, { generation: number; line: ProductLine }>;
}

const scratchBySnapshot = new WeakMap<StructuringCatalogue['bracketsById'], Scratch>();

/**
 * The snapshot's scratch for a deal to hold until `giveBack`, keyed by its bracket table and pricing index (the same
 * objects for the snapshot's life); null while another deal holds it.
 */
export function borrowScratch(catalogue: StructuringCatalogue): Scratch | null {
  let scratch = scratchBySnapshot.get(catalogue.bracketsById);
  if (scratch === undefined || scratch.index !== catalogue.pricingIndex) {
    scratch = {
      index: catalogue.pricingIndex,
      held: false,
      generation: 0,
      records: new Map(),
      floors: new Float64Array(0),
      floorsUsed: 0,
      terms: new Map(),
      lines: new Map(),
    };
    scratchBySnapshot.set(catalogue.bracketsById, scratch);
  }
  if (scratch.held) return null;
  scratch.held = true;
  scratch.generation++;
  scratch.floors.fill(Number.NaN, 0, scratch.floorsUsed);
  scratch.floorsUsed = 0;
  return scratch;
}

/** Ends a deal's hold: `floors` (its table, maybe grown) and what it wrote of it are kept for the next deal. */
export function giveBack(scratch: Scratch, floors: Float64Array, floorsUsed: number): void {
  scratch.floors = floors;
  scratch.floorsUsed = floorsUsed;
  scratch.held = false;
}
