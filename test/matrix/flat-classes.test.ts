/**
 * What the engines build per item of a run (approval outcomes and results, priced brackets, joined rows, calculator
 * and Matrix Calculator rows) is built by `new` from a flat class: its prototype's prototype is `Object.prototype`.
 * Not a literal (V8 may pretenure a literal's objects: test/matrix/young-results.test.ts) and not a derived class:
 * a derived class's `new` measured over twice a flat one's on the Matrix Calculator's rows (~1.2 against ~0.48 µs a
 * row; docs/performance.md, "The engines' tail"). Fields two classes share are written by a helper their
 * constructors call.
 */
import { describe, expect, it } from 'vitest';
import { buildAssetAncestry, buildCriteriaTable, evaluateApprovals } from '../../src/modules/matrix/criteria.ts';
import { joinMatrixCalculator } from '../../src/modules/matrix/join.ts';
import { approvalResult, matrixCalculatorRows } from '../../src/modules/matrix/rows.ts';
import { buildPricingIndex, priceDeal, priceMarket } from '../../src/modules/pricing/engine.ts';
import { calculatorRow } from '../../src/modules/pricing/rows.ts';
import { approval } from './fixtures.ts';
import { makeDeal, syntheticCatalogue } from '../pricing/fixtures.ts';

const catalogue = syntheticCatalogue({ brackets: 400, financiers: 10, seed: 7, mapEverythingAtRoot: true });
const index = buildPricingIndex(catalogue);
const ancestry = buildAssetAncestry(catalogue.assets);
const approvals = catalogue.brackets.map((b, k) =>
  approval({ id: k + 1, organisation_id: b.organisation_id, rate_bracket_ids: [b.id] }),
);
const names = new Map(approvals.map((a) => [a.organisation_id, `Financier ${a.organisation_id}`]));
const deal = makeDeal({ asset_value: catalogue.leafIds[0], cost: 40_000, cost_inc: 40_000, term: 48 });

function oneOfEachKind(): Record<string, object | undefined> {
  const outcomes = evaluateApprovals(buildCriteriaTable(approvals), deal, ancestry, { organisationIds: null });
  const join = joinMatrixCalculator(outcomes, priceMarket(index, deal), names);
  const priced = priceDeal(index, deal);
  return {
    outcome: outcomes[0],
    approvalResult: outcomes.map(approvalResult)[0],
    joinedRow: join.rows[0],
    matrixCalculatorRow: matrixCalculatorRows(join.rows, { masked: false })[0],
    maskedMatrixCalculatorRow: matrixCalculatorRows(join.rows, { masked: true }).at(-1),
    pricedBracket: priced[0],
    calculatorRow: calculatorRow(priced[0], 'Financier', deal),
  };
}

describe('Per-item engine objects are flat classes', () => {
  it.each(Object.entries(oneOfEachKind()))('%s: built by `new`, with no base class', (_, item) => {
    expect(item).toBeDefined(); // the run joined and priced: the check is not vacuous
    const prototype = Object.getPrototypeOf(item) as object;
    expect(prototype).not.toBe(Object.prototype);
    expect(Object.getPrototypeOf(prototype)).toBe(Object.prototype);
  });
});
