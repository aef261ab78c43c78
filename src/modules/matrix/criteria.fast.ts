/**
 * The criteria table: the approval criteria (criteria.rules.ts) over typed arrays, the layout the services scan.
 *
 * Every approval's criteria as numbers, built once per catalogue snapshot. A scan of thousands of approvals is bound
 * by memory, not arithmetic: reading each approval's object touches several cache lines, many of them for an approval
 * the asset or the cost rules out at once. The table keeps what rules approvals out first (the asset, the cost) in
 * narrow columns, answers the asset for every approval at once from an index by asset id, and keeps the other
 * criteria of each approval together, read only for those that get that far. `evaluatePrepared` stays the definition:
 * the scan answers what it answers for every approval (test/matrix/criteria.properties.test.ts, on random catalogues), and
 * an approval the table cannot state exactly is evaluated by it directly.
 */
import { nextGeneration } from '../../lib/generations.ts';
import { ASSET_STATES, TRANSACTION_TYPES, type AssetState } from '../../lib/vocabulary.ts';
import type { Approval } from '../catalogue/index.ts';
import {
  ABN_AGE,
  ASSET_AGE,
  ASSET_STATE,
  BORROWER_AGE_OLDEST,
  BORROWER_AGE_YOUNGEST,
  CREDIT_SCORE,
  DEPOSIT,
  DROPPED,
  evaluatePrepared,
  FILE_AGE,
  GST_AGE,
  HOME_OWNER,
  INDUSTRY,
  industryListed,
  MONEY_TOLERANCE,
  missingFieldsOf,
  NOTHING_MISSING,
  Outcome,
  type PreparedDeal,
  PRIVATE_SALE,
  type ApprovalOutcome,
  SALE_HIRE_BACK,
  TERM,
  TRANSACTION_TYPE,
} from './criteria.rules.ts';

/** Per approval in `ranges`: the six integer ranges, each (min, max), in this order. A blank bound is NaN. */
const RANGES = [
  ['min_term', 'max_term'],
  ['min_abn_age', 'max_abn_age'],
  ['min_gst_age', 'max_gst_age'],
  ['min_asset_age', 'max_asset_age'],
  ['min_file_age', 'max_file_age'],
  ['min_credit_score', 'max_credit_score'],
] as const satisfies readonly (readonly [keyof Approval, keyof Approval])[];
const RANGE_STRIDE = RANGES.length * 2;

/** Per approval in `others`, at these offsets. NaN is blank (unchecked) throughout. */
const AT_MIN_BORROWER_AGE = 0;
const AT_MAX_BORROWER_AGE = 1;
const AT_HOME_OWNER = 2; // tri-state flags: 0 false, 1 true
const AT_PRIVATE_SALE = 3;
const AT_SALE_HIRE_BACK = 4;
const AT_ASSET_STATE = 5; // position in ASSET_STATES; blank for null and 'none'
const AT_TRANSACTION_TYPES = 6; // a bit per TRANSACTION_TYPES position, plus LISTED; 0 for an empty list (every type)
const AT_MIN_DEPOSIT_PERCENTAGE = 7;
const AT_MIN_DEPOSIT_AMOUNT = 8;
const AT_INDUSTRIES = 9; // how many are listed; 0 for every industry
const OTHERS_STRIDE = 10;

/** Set on a transaction-type list that names anything. */
const LISTED = 1 << 30;
const EVERY_TRANSACTION_TYPE = (1 << TRANSACTION_TYPES.length) - 1;

/** The approvals of a catalogue, their criteria laid out for `evaluateApprovals`. Immutable once built. */
export interface CriteriaTable {
  readonly approvals: readonly Approval[];
  /** 1 where the table cannot state the approval exactly (a NaN criterion, a value outside the vocabulary). */
  readonly irregular: Uint8Array;
  /** How many assets each approval lists (0: every asset). */
  readonly assetCount: Int32Array;
  /** Asset id -> the positions of the approvals that list it, ascending. */
  readonly approvalsByAsset: ReadonlyMap<number, Int32Array>;
  readonly minCost: Float64Array;
  readonly maxCost: Float64Array;
  readonly ranges: Float64Array;
  readonly others: Float64Array;
}

const blankIfNull = (value: number | null): number => (value === null ? NaN : value);
const flagValue = (value: boolean | null): number => (value === null ? NaN : value ? 1 : 0);
const assetStateCode = (state: AssetState | null): number =>
  state === null || state === 'none' ? NaN : ASSET_STATES.indexOf(state);

/**
 * Lays out `approvals` for the scan: O(approvals + their asset ids). The catalogue snapshot builds one per version,
 * beside its pricing index; the table holds `approvals` as given (not copied).
 */
export function buildCriteriaTable(approvals: readonly Approval[]): CriteriaTable {
  const count = approvals.length;
  const irregular = new Uint8Array(count);
  const assetCount = new Int32Array(count);
  const minCost = new Float64Array(count);
  const maxCost = new Float64Array(count);
  const ranges = new Float64Array(count * RANGE_STRIDE);
  const others = new Float64Array(count * OTHERS_STRIDE);
  const byAsset = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const a = approvals[i];
    // NaN cannot stand for blank where a criterion is NaN itself; nor can a code stand for a value outside the
    // vocabulary. Such an approval is evaluated by `evaluatePrepared`, so the table never has to state it.
    let odd =
      a.asset_ids.some(Number.isNaN) ||
      (a.asset_state !== null && !ASSET_STATES.includes(a.asset_state)) ||
      a.transaction_types.some((t) => !TRANSACTION_TYPES.includes(t));
    const put = (column: Float64Array, at: number, value: number | null): void => {
      if (value !== null && Number.isNaN(value)) odd = true;
      column[at] = blankIfNull(value);
    };
    put(minCost, i, a.min_asset_cost);
    put(maxCost, i, a.max_asset_cost);
    for (let k = 0; k < RANGES.length; k++) {
      put(ranges, i * RANGE_STRIDE + 2 * k, a[RANGES[k][0]]);
      put(ranges, i * RANGE_STRIDE + 2 * k + 1, a[RANGES[k][1]]);
    }
    const o = i * OTHERS_STRIDE;
    put(others, o + AT_MIN_BORROWER_AGE, a.min_borrower_age);
    put(others, o + AT_MAX_BORROWER_AGE, a.max_borrower_age);
    others[o + AT_HOME_OWNER] = flagValue(a.home_owner);
    others[o + AT_PRIVATE_SALE] = flagValue(a.private_sale);
    others[o + AT_SALE_HIRE_BACK] = flagValue(a.sale_hire_back);
    others[o + AT_ASSET_STATE] = assetStateCode(a.asset_state);
    let types = a.transaction_types.length > 0 ? LISTED : 0;
    for (const t of a.transaction_types) {
      const bit = TRANSACTION_TYPES.indexOf(t);
      if (bit >= 0) types |= 1 << bit;
    }
    others[o + AT_TRANSACTION_TYPES] = types;
    put(others, o + AT_MIN_DEPOSIT_PERCENTAGE, a.min_deposit_percentage);
    put(others, o + AT_MIN_DEPOSIT_AMOUNT, a.min_deposit_amount);
    others[o + AT_INDUSTRIES] = a.industries.length;
    assetCount[i] = a.asset_ids.length;
    for (const id of a.asset_ids) {
      const listed = byAsset.get(id);
      if (listed === undefined) byAsset.set(id, [i]);
      else if (listed[listed.length - 1] !== i) listed.push(i);
    }
    irregular[i] = odd ? 1 : 0;
  }
  const approvalsByAsset = new Map<number, Int32Array>();
  for (const [id, positions] of byAsset) approvalsByAsset.set(id, Int32Array.from(positions));
  return { approvals, irregular, assetCount, approvalsByAsset, minCost, maxCost, ranges, others };
}

/**
 * Stamps of the approvals whose assets cover the deal's, reused by every scan (a scan is synchronous, so never by
 * two at once): an approval is covered when its entry equals the scan's generation, so nothing is cleared per deal.
 */
const coverage = { generation: 0, stamp: new Uint32Array(0) };

function stampCoverage(table: CriteriaTable, p: PreparedDeal): { generation: number; stamp: Uint32Array } {
  if (coverage.stamp.length < table.approvals.length) {
    coverage.stamp = new Uint32Array(Math.max(table.approvals.length, coverage.stamp.length * 2));
    coverage.generation = 0;
  }
  const generation = nextGeneration(coverage, coverage.stamp);
  const stamp = coverage.stamp;
  for (const id of p.assetLine) {
    const positions = table.approvalsByAsset.get(id);
    if (positions !== undefined) for (let k = 0; k < positions.length; k++) stamp[positions[k]] = generation;
  }
  return coverage;
}

/** The deal's answers as the table's numbers: NaN for a question the deal did not answer. */
interface TableAnswers {
  readonly term: number;
  readonly abnAge: number;
  readonly gstAge: number;
  readonly assetAge: number;
  readonly fileAge: number;
  readonly creditScore: number;
  readonly youngest: number;
  readonly oldest: number;
  readonly homeOwner: number;
  readonly privateSale: number;
  readonly saleHireBack: number;
  readonly assetState: number;
  /** The bit of the deal's transaction type; 0 unanswered; LISTED alone for a type outside the vocabulary. */
  readonly transactionType: number;
  readonly deposit: number;
}

function tableAnswers(p: PreparedDeal): TableAnswers {
  const d = p.deal;
  const type = d.transaction_type === null ? -1 : TRANSACTION_TYPES.indexOf(d.transaction_type);
  return {
    term: blankIfNull(d.term),
    abnAge: blankIfNull(d.abn_age),
    gstAge: blankIfNull(d.gst_age),
    assetAge: blankIfNull(d.asset_age),
    fileAge: blankIfNull(d.file_age),
    creditScore: blankIfNull(d.credit_score),
    youngest: blankIfNull(p.borrowerYoungest),
    oldest: blankIfNull(p.borrowerOldest),
    homeOwner: flagValue(d.home_owner),
    privateSale: flagValue(d.private_sale),
    saleHireBack: flagValue(d.sale_hire_back),
    assetState: assetStateCode(p.assetState),
    transactionType: d.transaction_type === null ? 0 : type >= 0 ? 1 << type : LISTED,
    deposit: blankIfNull(d.deposit),
  };
}

/** `checkRange` on the table: the range at `at` (min, max), NaN for a blank bound or an unanswered question. */
function rangeAt(ranges: Float64Array, at: number, value: number, bit: number): number {
  const min = ranges[at];
  const max = ranges[at + 1];
  if (!Number.isNaN(value)) return value < min || value > max ? DROPPED : 0;
  return !Number.isNaN(max) || min > 0 ? bit : 0;
}

/** A tri-state flag or the asset state (NaN unchecked): 0, `bit` when the deal did not answer, or DROPPED. */
function equalAt(wanted: number, answer: number, bit: number): number {
  if (Number.isNaN(wanted)) return 0;
  if (Number.isNaN(answer)) return bit;
  return answer === wanted ? 0 : DROPPED;
}

/**
 * `evaluatePrepared` for every approval of the table, in table order, appending the outcomes not dropped; `organisations`
 * null = every organisation.
 */
export function scanTable(
  table: CriteriaTable,
  p: PreparedDeal,
  organisations: ReadonlySet<number> | null,
  outcomes: ApprovalOutcome[],
): void {
  const { approvals, irregular, assetCount, minCost, maxCost, ranges, others } = table;
  const { generation, stamp } = stampCoverage(table, p);
  const x = tableAnswers(p);
  const cost = p.deal.cost_inc;
  for (let i = 0; i < approvals.length; i++) {
    if (organisations !== null && !organisations.has(approvals[i].organisation_id)) continue;
    if (irregular[i] !== 0) {
      const outcome = evaluatePrepared(approvals[i], p);
      if (outcome !== null) outcomes.push(outcome);
      continue;
    }
    if (assetCount[i] > 0 && stamp[i] !== generation) continue;
    if (cost + MONEY_TOLERANCE < minCost[i] || cost - MONEY_TOLERANCE > maxCost[i]) continue;

    // The six ranges written out rather than looped over RANGES: the loop measured as slow as reading the approvals'
    // objects.
    const at = i * RANGE_STRIDE;
    let missing = 0;
    let r = rangeAt(ranges, at, x.term, TERM);
    if (r === DROPPED) continue;
    missing |= r;
    r = rangeAt(ranges, at + 2, x.abnAge, ABN_AGE);
    if (r === DROPPED) continue;
    missing |= r;
    r = rangeAt(ranges, at + 4, x.gstAge, GST_AGE);
    if (r === DROPPED) continue;
    missing |= r;
    r = rangeAt(ranges, at + 6, x.assetAge, ASSET_AGE);
    if (r === DROPPED) continue;
    missing |= r;
    r = rangeAt(ranges, at + 8, x.fileAge, FILE_AGE);
    if (r === DROPPED) continue;
    missing |= r;
    r = rangeAt(ranges, at + 10, x.creditScore, CREDIT_SCORE);
    if (r === DROPPED) continue;
    missing |= r;

    const o = i * OTHERS_STRIDE;
    // Borrower age, read as `evaluatePrepared` reads the pair.
    const minAge = others[o + AT_MIN_BORROWER_AGE];
    if (!Number.isNaN(minAge)) {
      if (!Number.isNaN(x.youngest)) {
        if (x.youngest < minAge) continue;
      } else if (x.oldest < minAge) continue;
      else if (minAge > 0) missing |= BORROWER_AGE_YOUNGEST;
    }
    const maxAge = others[o + AT_MAX_BORROWER_AGE];
    if (!Number.isNaN(maxAge)) {
      if (!Number.isNaN(x.oldest)) {
        if (x.oldest > maxAge) continue;
      } else if (x.youngest > maxAge) continue;
      else missing |= BORROWER_AGE_OLDEST;
    }

    r = equalAt(others[o + AT_HOME_OWNER], x.homeOwner, HOME_OWNER);
    if (r === DROPPED) continue;
    missing |= r;
    r = equalAt(others[o + AT_PRIVATE_SALE], x.privateSale, PRIVATE_SALE);
    if (r === DROPPED) continue;
    missing |= r;
    r = equalAt(others[o + AT_SALE_HIRE_BACK], x.saleHireBack, SALE_HIRE_BACK);
    if (r === DROPPED) continue;
    missing |= r;
    r = equalAt(others[o + AT_ASSET_STATE], x.assetState, ASSET_STATE);
    if (r === DROPPED) continue;
    missing |= r;

    const types = others[o + AT_TRANSACTION_TYPES];
    if (types !== 0) {
      if (x.transactionType === 0) {
        if ((types & EVERY_TRANSACTION_TYPE) !== EVERY_TRANSACTION_TYPE) missing |= TRANSACTION_TYPE;
      } else if ((types & x.transactionType & EVERY_TRANSACTION_TYPE) === 0) continue;
    }

    if (others[o + AT_INDUSTRIES] > 0) {
      if (p.industry === null) missing |= INDUSTRY;
      else if (!industryListed(approvals[i].industries, p.industry)) continue;
    }

    // Deposit: blank bounds are NaN, so `required` is NaN when neither minimum is set.
    const amount = others[o + AT_MIN_DEPOSIT_AMOUNT];
    let required = (others[o + AT_MIN_DEPOSIT_PERCENTAGE] * cost) / 100;
    if (!Number.isNaN(amount) && !(amount <= required)) required = amount;
    if (!Number.isNaN(required)) {
      if (Number.isNaN(x.deposit)) {
        if (required > 0) missing |= DEPOSIT;
      } else if (x.deposit + MONEY_TOLERANCE < required) continue;
    }

    const a = approvals[i];
    outcomes.push(
      new Outcome(
        a,
        missing === 0 ? 'confirmed' : 'possible',
        missing === 0 ? NOTHING_MISSING : missingFieldsOf(missing),
        a.min_deposit_percentage,
        a.min_deposit_amount,
        Number.isNaN(required) ? null : required,
      ),
    );
  }
}
