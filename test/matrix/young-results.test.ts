/**
 * What the engines build for one run (approval outcomes and results, priced brackets, joined rows, calculator and
 * Matrix Calculator rows) dies with that run, so it must be allocated where short-lived objects go: V8's young
 * generation. V8 tracks each object literal's allocation site and, once it sees most objects from one literal outlive
 * a young GC, allocates every later one straight into the old generation ("allocation-site pretenuring"). A run's
 * objects do outlive young GCs: while the run sorts and joins them, and while concurrent requests are still
 * answering. V8 pretenured the priced bracket literal (Node 20, 22 and 24), the outcome and Matrix row literals under
 * concurrent Matrix Calculator requests (Node 20) and the joined row in some processes, and every later run's objects
 * then filled the old generation: on Node 24 the Matrix engines' p99 went from ~2.2x to ~5.5x their median
 * (docs/performance.md, "The engines' tail"). They are built by `new` now (`Outcome`, `ApprovalResult`,
 * `PricedRow`, `Joined`, `ShownRow`, `PricedCardRow`), which V8 does not pretenure.
 *
 * V8's own check (`%InYoungGeneration`) needs a flag, so it runs in child processes: four in CI, because V8 made the
 * call in most processes, not all (each process decides once); two locally (testkit/sizes.ts), where a regression
 * still shows in most runs.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sized } from '../../testkit/sizes.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const PROCESSES = sized(4, 2);
/**
 * The catalogue's brackets: 12,000 in CI, a quarter locally. With the priced bracket built by a literal again (the
 * regression this is for), every checked run's bracket was old at 3,000 too.
 */
const BRACKETS = sized(12_000, 3_000);

/**
 * In each child: a catalogue of BRACKETS brackets with an approval for every fourth bracket; Matrix Calculator and
 * calculator runs priced while earlier runs' results are still held (as requests in flight hold theirs) across young
 * GCs; then, for later runs, the last object of each kind built (the last allocated), checked for where V8 put it.
 */
const SCRIPT = `
const { buildPricingIndex, priceDeal, priceMarket } = await import('./src/modules/pricing/engine.ts');
const { calculatorRow } = await import('./src/modules/pricing/rows.ts');
const { buildAssetAncestry, buildCriteriaTable, evaluateApprovals } = await import('./src/modules/matrix/criteria.ts');
const { joinMatrixCalculator } = await import('./src/modules/matrix/join.ts');
const { approvalResult, matrixCalculatorRows } = await import('./src/modules/matrix/rows.ts');
const { makeDeal, syntheticCatalogue } = await import('./test/pricing/fixtures.ts');
const { approval } = await import('./test/matrix/fixtures.ts');
const young = new Function('o', 'return %InYoungGeneration(o)');
const catalogue = syntheticCatalogue({ brackets: ${BRACKETS}, financiers: 300, seed: 5, mapEverythingAtRoot: true });
const index = buildPricingIndex(catalogue);
const ancestry = buildAssetAncestry(catalogue.assets);
const approvals = catalogue.brackets
  .filter((_, k) => k % 4 === 0)
  .map((b, k) => approval({ id: k + 1, organisation_id: b.organisation_id, rate_bracket_ids: [b.id] }));
const criteria = buildCriteriaTable(approvals);
const names = new Map(approvals.map((a) => [a.organisation_id, 'Financier ' + a.organisation_id]));
const deal = (k) => makeDeal({ asset_value: catalogue.leafIds[k % catalogue.leafIds.length], cost: 20000 + 997 * k,
  cost_inc: 20000 + 997 * k, term: 36 + 12 * (k % 4) });
// Where the last object of each kind is, asked as soon as its stage returns: later stages allocate enough for two
// young GCs to promote a held object legitimately, which says nothing about where V8 allocated it.
const run = (k, seen) => {
  const d = deal(k);
  const outcomes = evaluateApprovals(criteria, d, ancestry, { organisationIds: null });
  seen?.('outcome', outcomes.at(-1));
  const join = joinMatrixCalculator(outcomes, priceMarket(index, d), names);
  seen?.('joinedRow', join.rows.at(-1));
  const rows = matrixCalculatorRows(join.rows, { masked: false });
  seen?.('matrixRow', rows.at(-1));
  const priced = priceDeal(index, d, { sorted: false });
  seen?.('pricedBracket', priced.at(-1));
  const cards = priced.map((p) => calculatorRow(p, 'Financier', d));
  seen?.('calculatorRow', cards.at(-1));
  const results = outcomes.map(approvalResult);
  seen?.('approvalResult', results.at(-1));
  return { outcomes, join, rows, priced, cards, results };
};
let runs = 0;
for (let round = 0; round < 6; round++) {
  const held = [];
  for (let k = 0; k < 30; k++) {
    held.push(run(k), priceDeal(index, deal(k)));
    runs++;
    if (k % 5 === 4) globalThis.gc({ type: 'minor' });
  }
}
const old = { outcome: 0, approvalResult: 0, joinedRow: 0, matrixRow: 0, pricedBracket: 0, calculatorRow: 0 };
let checked = 0;
for (let k = 0; k < 20; k++) {
  const found = {};
  run(k, (kind, o) => {
    found[kind] = o === undefined ? undefined : young(o);
  });
  if (Object.keys(old).some((kind) => found[kind] === undefined)) continue;
  checked++;
  for (const kind of Object.keys(old)) if (!found[kind]) old[kind]++;
}
console.log(JSON.stringify({ runs, checked, old }));
`;

const run = promisify(execFile);

describe('What a run builds is allocated young, however the runs before it were held', () => {
  it(`in ${PROCESSES} processes, after runs held across young GCs, every outcome and row built is young (Node ${process.versions.node})`, async () => {
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, async () => {
        const { stdout } = await run(
          process.execPath,
          ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
          { cwd: ROOT, encoding: 'utf8' },
        );
        return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
          runs: number;
          checked: number;
          old: Record<string, number>;
        };
      }),
    );
    for (const result of results) {
      expect(result.runs).toBe(180);
      expect(result.checked).toBeGreaterThanOrEqual(10); // runs that joined and priced: the check is not vacuous
      expect(result.old).toEqual({
        outcome: 0,
        approvalResult: 0,
        joinedRow: 0,
        matrixRow: 0,
        pricedBracket: 0,
        calculatorRow: 0,
      });
    }
  }, 180_000);
});
