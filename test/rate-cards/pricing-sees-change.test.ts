/**
 * Pricing sees a rate-card change on its next request, in every process: two app instances on one database (two
 * "processes", each with its own catalogue snapshot). A bracket changed, then restored, through one is priced at the
 * new, then the restored, rate by the other on the very next request: the catalogue version the change bumped in its
 * own transaction keys every process's snapshot. On PostgreSQL (TEST_DATABASE_URL) each app has its own pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_REASON } from '../../src/modules/rate-cards/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let writer: TestApp;
let pricer: TestApp;
let admin: string;
let broker: string;
const DEAL = { cost: 50000, asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };

beforeAll(async () => {
  writer = await startTestApp();
  pricer = await startTestApp({ shareDatabaseWith: writer });
  await writer.database.prisma.organisation.update({
    where: { id: 8 },
    data: { plan_overrides: { calculator_allowance: null, matrix_allowance: null } },
  });
  admin = (await writer.login('financier.admin@demo.test')).access;
  broker = (await pricer.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await pricer?.close();
  await writer?.close();
});

async function baseMinOf(bracketId: number): Promise<string | undefined> {
  const res = await pricer.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
  expect(res.status).toBe(200);
  return res.body.results.find((r: any) => r.rate_bracket_id === bracketId)?.base_min;
}

describe('A change (and a restore) made through one process is priced by the other on its next request', () => {
  it('update a bracket, price; restore the earlier version, price', async () => {
    const first = await pricer.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
    const row = first.body.results.find((r: any) => r.organisation_id === 1);
    expect(row).toBeDefined(); // financier 1 prices this deal
    const bracketId: number = row.rate_bracket_id;
    const before = row.base_min;

    const changed: any = await writer
      .graphql(admin)
      .request(
        `mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: 3.33, base_max: 19}) { __typename } }`,
        { id: bracketId },
      );
    expect(changed.updateRateBracket.__typename).toBe('RateCardChange');
    expect(Number(await baseMinOf(bracketId))).toBe(3.33);

    // The card's first recorded change also recorded its baseline: the card as loaded, to come back to.
    const baseline = await writer.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: 1, resource: 'rate_card' },
      orderBy: { id: 'asc' },
    });
    expect(baseline.reason).toBe(BASELINE_REASON);
    const restored = await writer.rest('POST', `/api/v1/rate-card-versions/${baseline.id}/restore`, { token: admin });
    expect(restored.status).toBe(200);
    expect(await baseMinOf(bracketId)).toBe(before);
  });
});
