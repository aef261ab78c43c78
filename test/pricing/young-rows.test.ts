/**
 * Priced rows die with the run that priced them, so they must be allocated where short-lived objects go: V8's young
 * generation. V8 tracks each object literal's allocation site and, once it sees most objects from one literal outlive
 * a young GC, allocates every later one straight into the old generation ("allocation-site pretenuring"). A run's
 * rows do outlive young GCs while they are sorted, and while the requests that priced them are still answering, so
 * the priced row literal was pretenured (on Node 20, 22 and 24 alike here), and every later run's rows then filled
 * the old generation: on Node 24 the Matrix engines' p99 went from ~2.2x to ~5.5x their median (docs/performance.md,
 * "Rows that stay young"). Rows are built by `new` (`PricedRow`, src/modules/pricing/engine.ts), which V8 does not
 * pretenure.
 *
 * V8's own check (`%InYoungGeneration`) needs a flag, so it runs in child processes; four of them, because V8 made
 * the call in most processes, not all (each process decides once).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const PROCESSES = 4;

/**
 * In each child: a 12,000-bracket catalogue; runs priced while the rows of earlier runs are still held (as requests in
 * flight hold theirs) across young GCs; then, for later runs, the last row built (unsorted, so the last allocated),
 * by `priceDeal` and by the Matrix Calculator's market, checked for where V8 put it.
 */
const SCRIPT = `
const { buildPricingIndex, priceDeal, priceMarket } = await import('./src/modules/pricing/engine.ts');
const { makeDeal, syntheticCatalogue } = await import('./test/pricing/fixtures.ts');
const young = new Function('o', 'return %InYoungGeneration(o)');
const catalogue = syntheticCatalogue({ brackets: 12000, financiers: 300, seed: 5, mapEverythingAtRoot: true });
const index = buildPricingIndex(catalogue);
const deal = (k) => makeDeal({ asset_value: catalogue.leafIds[k % catalogue.leafIds.length], cost: 20000 + 997 * k,
  cost_inc: 20000 + 997 * k, term: 36 + 12 * (k % 4) });
let priced = 0, checked = 0, old = 0;
for (let round = 0; round < 6; round++) {
  const held = [];
  for (let k = 0; k < 40; k++) {
    held.push(priceDeal(index, deal(k)));
    if (k % 5 === 4) globalThis.gc({ type: 'minor' });
  }
  priced += held.reduce((n, rows) => n + rows.length, 0);
}
for (let k = 0; k < 20; k++) {
  const rows = priceDeal(index, deal(k), { sorted: false });
  const market = priceMarket(index, deal(k));
  for (const row of [rows.at(-1), market.count ? market.row(market.count - 1) : undefined]) {
    if (row === undefined) continue;
    checked++;
    if (!young(row)) old++;
  }
}
console.log(JSON.stringify({ priced, checked, old }));
`;

const run = promisify(execFile);

describe('Priced rows are allocated young, however much was priced before', () => {
  it(`in ${PROCESSES} processes, rows priced after runs held across young GCs are all young (Node ${process.versions.node})`, async () => {
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, async () => {
        const { stdout } = await run(
          process.execPath,
          ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
          { cwd: ROOT, encoding: 'utf8' },
        );
        return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { priced: number; checked: number; old: number };
      }),
    );
    for (const result of results) {
      expect(result.priced).toBeGreaterThan(100_000); // the runs did price: the check is not vacuous
      expect(result.checked).toBeGreaterThanOrEqual(30);
      expect(result.old).toBe(0);
    }
  }, 180_000);
});
