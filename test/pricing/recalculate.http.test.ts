/**
 * POST /api/v1/calculator/recalculate over real HTTP (api-v1.md: body all required, 200 fields, the documented
 * 500; pricing-conventions Rules 1, 2, 4, 8, 9 and the reference values; docs/pricing.md "Recalculation").
 * A fee-free bracket and a bracket whose product has a 10.00 monthly fee are created, so figures are exact.
 */
import { PMT as excelPmt } from '@formulajs/formulajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';

/** Excel PMT (formulajs, the test oracle); its error values fail the test. */
function PMT(rate: number, nper: number, pv: number, fv: number, type: 0 | 1): number {
  const value = excelPmt(rate, nper, pv, fv, type);
  if (typeof value !== 'number') throw value;
  return value;
}

let t: TestApp;
let token: string;
let noFeeBracket = 0;
let feeBracket = 0;

beforeAll(async () => {
  t = await startTestApp();
  const org = await seedKit(t.database.prisma).financier({ name: 'Recalc Test Finance' });
  const noFee = await org.product({ product_name: 'No Fees' });
  const fee = await org.product({ product_name: 'Monthly Fee', monthly_fee: 10 });
  noFeeBracket = (await noFee.bracket({ name: 'Plain', base_min: 9.5, base_max: 11.5 })).id;
  feeBracket = (await fee.bracket({ name: 'With fee', base_min: 9.5, base_max: 11.5 })).id;
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const FIELDS = [
  'rate_bracket_id',
  'base_min',
  'base_max',
  'compounding_freq_value',
  'pv',
  'balloon',
  'cost',
  'deposit',
  'noi_min',
  'noi_max',
  'billing_type',
  'repayment_frequency',
];

/** The conventions' plain case: P 50,000, 9.5% (band to 11.5%), c 12, monthly, 60, arrears, nothing financed beyond the asset. */
const plain = (extra: Record<string, unknown> = {}) => ({ ...recalculationBody(noFeeBracket), ...extra });
const recalc = (body: unknown, bearer: string | null = token) =>
  t.rest('POST', '/api/v1/calculator/recalculate', { token: bearer, body });
const cents = (x: number) => Math.round(x * 100) / 100;

describe('Rule 4 Repayment: the plain monthly reference value, recalculated', () => {
  it("P 50,000 at 9.5%, c 12, monthly, n 60, arrears: repayment 1050.09; the band's max end at 11.5% repays 1099.63", async () => {
    const res = await recalc(plain());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'e_max',
      'e_min',
      'r_max',
      'r_min',
      'rate_bracket_id',
      'repayment_max',
      'repayment_min',
    ]);
    expect(res.body).toMatchObject({ rate_bracket_id: noFeeBracket, repayment_min: 1050.09, repayment_max: 1099.63 });
    for (const f of ['r_min', 'r_max', 'repayment_min', 'repayment_max', 'e_min', 'e_max'])
      expect(typeof res.body[f], f).toBe('number');
  });

  it('repayment_min and repayment_max use their own instalment counts (noi_min, noi_max)', async () => {
    const res = await recalc(plain({ noi_min: 48, noi_max: 72 }));
    expect(res.body.repayment_min).toBe(cents(PMT(0.095 / 12, 48, -50000, 0, 0)));
    expect(res.body.repayment_max).toBe(cents(PMT(0.115 / 12, 72, -50000, 0, 0)));
  });
});

describe('Rule 8 Effective rate: r_* are rates per instalment as percentages; e equals the base rate when nothing is financed beyond the asset', () => {
  it('r_min = 9.5/12 %, r_max = 11.5/12 %, e_min 9.5, e_max 11.5', async () => {
    const res = await recalc(plain());
    expect(res.body.r_min).toBeCloseTo(9.5 / 12, 12);
    expect(res.body.r_max).toBeCloseTo(11.5 / 12, 12);
    expect(res.body.e_min).toBe(9.5);
    expect(res.body.e_max).toBe(11.5);
  });

  it('uses cost and deposit as given: cost 55,000 less a 5,000 deposit advances 50,000 = pv, so e is still 9.5', async () => {
    const res = await recalc(plain({ cost: 55000, deposit: 5000 }));
    expect(res.body).toMatchObject({ repayment_min: 1050.09, e_min: 9.5, e_max: 11.5 });
  });

  it('the funded brokerage reference: pv 61,800 on 60,000 advanced, 7.5%, 48 in advance, balloon 12,000: 1271.16 and e 8.8807', async () => {
    const res = await recalc(
      plain({
        base_min: 7.5,
        base_max: 7.5,
        pv: 61800,
        cost: 60000,
        balloon: 12000,
        noi_min: 48,
        noi_max: 48,
        billing_type: 'advance',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ repayment_min: 1271.16, repayment_max: 1271.16, e_min: 8.8807, e_max: 8.8807 });
    expect(res.body.r_min).toBeCloseTo(7.5 / 12, 12);
  });

  it('zero rate: P 24,000, 0%, 24 instalments, balloon 6,000: 750.00 in either mode, r and e 0', async () => {
    for (const billing_type of ['advance', null]) {
      const res = await recalc(
        plain({
          base_min: 0,
          base_max: 0,
          pv: 24000,
          cost: 24000,
          balloon: 6000,
          noi_min: 24,
          noi_max: 24,
          billing_type,
        }),
      );
      expect(res.body).toEqual({
        rate_bracket_id: noFeeBracket,
        r_min: 0,
        r_max: 0,
        repayment_min: 750,
        repayment_max: 750,
        e_min: 0,
        e_max: 0,
      });
    }
  });
});

describe('Rule 4 Repayment: billing_type advance prices in advance; anything else, null included, in arrears', () => {
  const balloonCase = (billing_type: unknown) =>
    plain({ base_min: 8.45, base_max: 8.45, pv: 88000, cost: 88000, balloon: 26400, billing_type });

  it('P 88,000 at 8.45%, 60, balloon 26,400: advance 1438.11; arrears 1448.23', async () => {
    expect((await recalc(balloonCase('advance'))).body.repayment_min).toBe(1438.11);
    expect((await recalc(balloonCase('arrears'))).body.repayment_min).toBe(1448.23);
  });

  it('null, empty, "ADVANCE", "in advance" and "none" all price in arrears', async () => {
    for (const billing_type of [null, '', 'ADVANCE', 'in advance', 'none']) {
      const res = await recalc(balloonCase(billing_type));
      expect(res.status, String(billing_type)).toBe(200);
      expect(res.body.repayment_min, String(billing_type)).toBe(1448.23);
    }
  });
});

describe('Rule 1 Frequencies: m from repayment_frequency, c from compounding_freq_value; none prices monthly', () => {
  it('repayment_frequency none gives the monthly figures', async () => {
    const monthly = await recalc(plain());
    const none = await recalc(plain({ repayment_frequency: 'none' }));
    expect(none.status).toBe(200);
    expect(none.body).toEqual(monthly.body);
  });

  it('weekly with monthly compounding (Rule 2): 260 instalments repay 241.59; r = ((1 + 9.5%/12)^(12/52) - 1) as a percentage', async () => {
    const res = await recalc(plain({ repayment_frequency: 'weekly', noi_min: 260, noi_max: 260 }));
    expect(res.body.repayment_min).toBe(241.59);
    expect(res.body.r_min).toBeCloseTo(((1 + 0.095 / 12) ** (12 / 52) - 1) * 100, 12);
    // e is the annualised per-instalment rate, m * i (Rule 8), not the nominal 9.5
    expect(res.body.e_min).toBe(Math.round(52 * ((1 + 0.095 / 12) ** (12 / 52) - 1) * 100 * 1e4) / 1e4);
  });

  it('compounding_freq_value is c: quarterly compounding of a monthly repayment', async () => {
    const i = (1 + 0.095 / 4) ** (4 / 12) - 1;
    const res = await recalc(plain({ compounding_freq_value: 4 }));
    expect(res.body.r_min).toBeCloseTo(i * 100, 12);
    expect(res.body.repayment_min).toBe(cents(PMT(i, 60, -50000, 0, 0)));
  });
});

describe("Rule 9 Monthly fee: the bracket's product fee share is added to the repayment, not to e", () => {
  it('a 10.00 monthly fee adds 10.00 to a monthly repayment and leaves e at 9.5', async () => {
    const res = await recalc(plain({ rate_bracket_id: feeBracket }));
    expect(res.body).toMatchObject({
      rate_bracket_id: feeBracket,
      repayment_min: 1060.09,
      repayment_max: 1109.63,
      e_min: 9.5,
      e_max: 11.5,
    });
  });

  it('weekly, the fee share is 10 * 12 / 52', async () => {
    const res = await recalc(
      plain({ rate_bracket_id: feeBracket, repayment_frequency: 'weekly', noi_min: 260, noi_max: 260 }),
    );
    const i = (1 + 0.095 / 12) ** (12 / 52) - 1;
    expect(res.body.repayment_min).toBe(cents(PMT(i, 260, -50000, 0, 0) + (10 * 12) / 52));
  });

  it("an unknown rate_bracket_id is not priced: 404, like another book's bracket (test/organisations/recalculate-book.test.ts)", async () => {
    const res = await recalc(plain({ rate_bracket_id: 987654 }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Rate bracket not found.' });
  });
});

describe('Request validation: every body field is required; wrong types are 400 naming the field', () => {
  it.each(FIELDS)('leaving out %s answers 400 naming it', async (field) => {
    const body: Record<string, unknown> = plain();
    delete body[field];
    const res = await recalc(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.errors[field].length).toBeGreaterThan(0);
  });

  it('an empty body names every field but the nullable billing_type; null required fields are named too', async () => {
    const empty = await recalc({});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(FIELDS.filter((f) => f !== 'billing_type').sort());
    const nulls = await recalc(plain({ pv: null, noi_max: null, repayment_frequency: null }));
    expect(nulls.status).toBe(400);
    expect(Object.keys(nulls.body.errors).sort()).toEqual(['noi_max', 'pv', 'repayment_frequency']);
  });

  it('billing_type null is an answer: 200', async () => {
    expect((await recalc(plain({ billing_type: null }))).status).toBe(200);
  });

  it('wrong types answer 400 naming each field', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ rate_bracket_id: 1.5 }, ['rate_bracket_id']],
      [{ rate_bracket_id: 'seven' }, ['rate_bracket_id']],
      [{ compounding_freq_value: 12.5 }, ['compounding_freq_value']],
      [{ pv: 'fifty thousand', balloon: true }, ['balloon', 'pv']],
      [{ base_min: [9.5], base_max: { v: 1 } }, ['base_max', 'base_min']],
      [{ noi_min: '60x' }, ['noi_min']],
      [{ billing_type: 1 }, ['billing_type']],
      [{ repayment_frequency: 'fortnightly' }, ['repayment_frequency']],
    ];
    for (const [change, fields] of cases) {
      const res = await recalc(plain(change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(change)).toEqual(fields);
    }
  });

  it('malformed JSON and a body that is not an object answer 400', async () => {
    const malformed = await t.rest('POST', '/api/v1/calculator/recalculate', { token, raw: '{"pv": 5' });
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.error).toBe('string');
    for (const raw of ['[]', '42', 'null']) {
      const res = await t.rest('POST', '/api/v1/calculator/recalculate', { token, raw });
      expect(res.status, raw).toBe(400);
      expect(Object.keys(res.body.errors), raw).toEqual(expect.arrayContaining(['pv', 'noi_min', 'rate_bracket_id']));
    }
  });
});

describe('Request validation: input mistakes are 400 naming the field, never the 500', () => {
  const mistakes: [string, Record<string, unknown>, string[]][] = [
    ['compounding_freq_value 0', { compounding_freq_value: 0 }, ['compounding_freq_value']],
    ['compounding_freq_value negative', { compounding_freq_value: -12 }, ['compounding_freq_value']],
    ['compounding_freq_value above daily', { compounding_freq_value: 366 }, ['compounding_freq_value']],
    ['noi_min 0', { noi_min: 0 }, ['noi_min']],
    ['noi_max negative', { noi_max: -60 }, ['noi_max']],
    ['noi_min below one instalment', { noi_min: 1e-300 }, ['noi_min']],
    ['noi_max beyond 100 years of daily instalments', { noi_max: 36_501 }, ['noi_max']],
    ['pv 0', { pv: 0 }, ['pv']],
    ['pv negative', { pv: -50000 }, ['pv']],
    ['a balloon above pv (it would repay with negative instalments)', { balloon: 50000.01 }, ['balloon']],
    ['a negative balloon', { balloon: -1 }, ['balloon']],
    ['cost 0', { cost: 0 }, ['cost']],
    ['a negative deposit', { deposit: -1 }, ['deposit']],
    ['a deposit that leaves nothing advanced', { deposit: 50000 }, ['deposit']],
    ['a negative rate', { base_min: -0.5 }, ['base_min']],
    ['a rate at or below -100% a year', { base_min: -1200 }, ['base_min']],
    ['an absurd rate', { base_max: 1e300 }, ['base_max']],
    ['amounts too large to price', { pv: 1e308, cost: 1e308 }, ['cost', 'pv']],
    ['several at once', { pv: 0, noi_min: 0, compounding_freq_value: 0 }, ['compounding_freq_value', 'noi_min', 'pv']],
  ];
  it.each(mistakes)('%s: 400 naming it', async (_label, change, fields) => {
    const res = await recalc(plain(change));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    expect(typeof res.body.error).toBe('string');
  });

  it('the boundaries themselves are accepted: balloon equal to pv, one instalment, daily compounding, 0%', async () => {
    for (const change of [
      { balloon: 50000 },
      { noi_min: 1, noi_max: 1 },
      { compounding_freq_value: 365 },
      { base_min: 0 },
    ]) {
      const res = await recalc(plain(change));
      expect(res.status, JSON.stringify(change)).toBe(200);
      expect(res.body.repayment_min).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('Errors: a row that cannot be re-priced answers the documented 500 with an error body, never a stack trace', () => {
  // Well-formed figures with no answer (docs/pricing.md "Recalculation"): Rule 8's solver finds no rate.
  const unpriceable: [string, Record<string, unknown>][] = [
    [
      'one advance instalment repaying more than was advanced (no effective rate)',
      { pv: 50000, cost: 40000, noi_min: 1, noi_max: 1, billing_type: 'advance' },
    ],
  ];
  it.each(unpriceable)('%s: 500 {error}', async (_label, change) => {
    const res = await recalc(plain(change));
    expect(res.status, JSON.stringify(res.body)).toBe(500);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error.length).toBeGreaterThan(0);
    expect(res.body.error).not.toMatch(/\n|\bat\s|\.ts\b|\.js\b|Error:/);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });
});

describe('Authentication 5: a read API token may recalculate', () => {
  it('a read-scoped API token recalculates', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token, body: { name: 'recalc read', scope: 'read' } });
    expect(minted.status).toBe(201);
    const res = await recalc(plain(), minted.body.token);
    expect(res.status).toBe(200);
    expect(res.body.repayment_min).toBe(1050.09);
  });
});
