/**
 * Spec: POST /calculator/scenarios/{id}/promote; States "Scenario" (recent --promote--> saved); Errors table rows for
 * promote (400 name_required, 404 not_found, 409 over_limit); Authentication 5 (a read token may not change saved
 * scenarios), 11 (client wording); reliability "saved-scenario limit exact under concurrency" (also on PostgreSQL).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordRun } from '../../src/modules/scenarios/record-run.ts';
import type { ScenarioTool } from '../../src/lib/vocabulary.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { raceRounds } from '../../testkit/sizes.ts';

let t: TestApp;
let admin: string;
let member: string;
let adminId: number;
let memberId: number;
const PRO_BROKER = 8; // broker.admin@demo.test and broker.user@demo.test

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('broker.admin@demo.test')).access;
  member = (await t.login('broker.user@demo.test')).access;
  adminId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
  memberId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await t.database.prisma.scenario.deleteMany({ where: { user_id: { in: [adminId, memberId] } } });
  await setSavedLimit(null);
});

async function setSavedLimit(limit: number | null): Promise<void> {
  await t.database.prisma.organisation.update({
    where: { id: PRO_BROKER },
    data: { plan_overrides: limit === null ? {} : { saved_scenario_limit: limit } },
  });
}

/** A recent scenario, written by the statement every run records itself with (record_run), no allowance consumed. */
async function recent(userId = adminId, tool: ScenarioTool = 'calculator'): Promise<number> {
  const outcome = await recordRun(t.database.prisma, {
    userId,
    day: '',
    metrics: [],
    limits: [],
    tool,
    request: { cost: '55000', term: 48 },
    summary: { repayment_min: '1234.56' },
  });
  if (!outcome.ok) throw new Error('a run without allowances cannot be refused');
  return outcome.scenarioId;
}

async function saved(userId = adminId, tool: ScenarioTool = 'calculator', name = 'Saved earlier'): Promise<number> {
  const id = await recent(userId, tool);
  await t.database.prisma.scenario.update({ where: { id }, data: { kind: 'saved', name } });
  return id;
}

const promote = (
  id: number | string,
  body?: unknown,
  options: { token?: string | null; headers?: Record<string, string> } = {},
) =>
  t.rest('POST', `/api/v1/calculator/scenarios/${id}/promote`, {
    token: options.token === undefined ? admin : options.token,
    body,
    headers: options.headers,
  });

const row = (id: number) => t.database.prisma.scenario.findUnique({ where: { id } });

describe('Scenario: recent --promote (name supplied, limit not reached)--> saved: 200 with an empty object', () => {
  it('answers 200 {} and the scenario is saved under the trimmed name, request and summary kept', async () => {
    const id = await recent();
    const res = await promote(id, { name: '  Excavator, 48 months  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await row(id)).toMatchObject({
      kind: 'saved',
      name: 'Excavator, 48 months',
      user_id: adminId,
      tool: 'calculator',
      request: { cost: '55000', term: 48 },
      summary: { repayment_min: '1234.56' },
    });
  });

  it('the saved limit counts saved scenarios of the same tool only', async () => {
    await setSavedLimit(1);
    await saved(adminId, 'matrix');
    const id = await recent();
    expect((await promote(id, { name: 'Calculator one' })).status).toBe(200);
  });
});

describe('Errors: 400 error = name_required', () => {
  it('missing name (no body, empty body, null) answers 400 {error: name_required}; nothing changes', async () => {
    const id = await recent();
    for (const body of [undefined, {}, { name: null }]) {
      const res = await promote(id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name_required' });
    }
    expect(await row(id)).toMatchObject({ kind: 'recent', name: null });
  });

  it('a blank name answers 400 {error: name_required}', async () => {
    const id = await recent();
    for (const name of ['', '   ', '\t\n']) {
      const res = await promote(id, { name });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name_required' });
    }
    expect((await row(id))!.kind).toBe('recent');
  });

  it('a name that is not a string, or too long, answers the general 400 body naming `name`', async () => {
    const id = await recent();
    const wrongType = await promote(id, { name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ error: 'Invalid request.', errors: { name: ['Not a valid string.'] } });
    const tooLong = await promote(id, { name: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      error: 'Invalid request.',
      errors: { name: ['Ensure this field has no more than 200 characters.'] },
    });
    expect((await row(id))!.kind).toBe('recent');
  });

  it('name is checked before the id: a blank name on a missing id is still 400', async () => {
    expect((await promote(999_999, { name: ' ' })).body).toEqual({ error: 'name_required' });
  });
});

describe("Errors: 404 error = not_found (no recent scenario of the caller's with that id)", () => {
  it("a missing id, another user's recent, an already-saved one and a non-numeric id all answer the same 404", async () => {
    const others = await recent(memberId);
    const alreadySaved = await saved();
    const answers = await Promise.all([
      promote(999_999, { name: 'X' }),
      promote(others, { name: 'X' }),
      promote(alreadySaved, { name: 'X' }),
      promote('abc', { name: 'X' }),
      promote('1.5', { name: 'X' }),
      promote('-3', { name: 'X' }),
      promote('99999999999', { name: 'X' }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
    }
    expect(await row(others)).toMatchObject({ kind: 'recent', name: null, user_id: memberId });
    expect(await row(alreadySaved)).toMatchObject({ kind: 'saved', name: 'Saved earlier' });
  });

  it('a deleted recent answers 404', async () => {
    const id = await recent();
    await t.database.prisma.scenario.delete({ where: { id } });
    expect((await promote(id, { name: 'Gone' })).body).toEqual({ error: 'not_found' });
  });
});

describe('Errors: 409 error = over_limit, with a client-worded message and limit', () => {
  it('web wording may name the plan page; ios and unknown clients state a fact only; the scenario stays recent', async () => {
    await setSavedLimit(2);
    await saved();
    await saved();
    const id = await recent();
    const web = await promote(id, { name: 'Third' });
    expect(web.status).toBe(409);
    expect(web.body).toEqual({ error: 'over_limit', message: expect.any(String), limit: 2 });
    expect(web.body.message).toMatch(/2/);
    expect(web.body.message).toMatch(/billing/);
    for (const client of ['ios', 'android', 'blackberry']) {
      const mobile = await promote(id, { name: 'Third' }, { headers: { 'x-service-client': client } });
      expect(mobile.status).toBe(409);
      expect(mobile.body).toEqual({ error: 'over_limit', message: expect.any(String), limit: 2 });
      expect(mobile.body.message).toMatch(/2/);
      expect(mobile.body.message).not.toMatch(/upgrade|plan|pro\b|\$|http|\/|billing/i);
    }
    expect(await row(id)).toMatchObject({ kind: 'recent', name: null });
    expect(await t.database.prisma.scenario.count({ where: { user_id: adminId, kind: 'saved' } })).toBe(2);
  });

  it("the plan's own limit applies without overrides (Pro: 50)", async () => {
    for (let i = 0; i < 50; i += 1) await saved();
    const res = await promote(await recent(), { name: 'Fifty-first' });
    expect(res.status).toBe(409);
    expect(res.body.limit).toBe(50);
  });

  it('deleting a saved scenario frees a slot', async () => {
    await setSavedLimit(1);
    const old = await saved();
    const id = await recent();
    expect((await promote(id, { name: 'New' })).status).toBe(409);
    await t.database.prisma.scenario.delete({ where: { id: old } });
    expect((await promote(id, { name: 'New' })).status).toBe(200);
  });
});

describe('Authentication 5: promote needs a session or a read_write token', () => {
  const mint = async (scope: 'read' | 'read_write') => {
    const res = await t.rest('POST', '/api/v1/api-tokens', {
      token: admin,
      body: { name: `scenarios ${scope}`, scope },
    });
    expect(res.status).toBe(201);
    return res.body.token as string;
  };

  it('a read API token answers 403 and nothing changes', async () => {
    const read = await mint('read');
    const id = await recent();
    const res = await promote(id, { name: 'Via read token' }, { token: read });
    expect(res.status).toBe(403);
    expect(typeof res.body.error).toBe('string');
    expect(await row(id)).toMatchObject({ kind: 'recent', name: null });
  });

  it('a read_write API token answers 200', async () => {
    const rw = await mint('read_write');
    const id = await recent();
    expect((await promote(id, { name: 'Via read_write token' }, { token: rw })).status).toBe(200);
    expect(await row(id)).toMatchObject({ kind: 'saved', name: 'Via read_write token' });
  });

  it('no credentials answer 401, whatever the body', async () => {
    const id = await recent();
    expect((await promote(id, { name: 'X' }, { token: null })).status).toBe(401);
    expect((await promote(id, { name: 42 }, { token: null })).status).toBe(401);
    expect((await row(id))!.kind).toBe('recent');
  });

  it('over GraphQL, a read token gets ForbiddenError', async () => {
    const read = await mint('read');
    const id = await recent();
    const out = await t
      .graphql(read)
      .request<any>('mutation($id: Int!) { promoteScenario(id: $id, name: "x") { __typename } }', { id });
    expect(out.promoteScenario.__typename).toBe('ForbiddenError');
    expect((await row(id))!.kind).toBe('recent');
  });
});

describe('Concurrency: the saved limit is exact, and a scenario is promoted at most once', () => {
  // Races only show on PostgreSQL (PGlite has one connection). Warm the connection pool first so the requests are not
  // staggered by connection set-up, and repeat: without the row lock these fail on almost every run.
  const ROUNDS = raceRounds(5);
  beforeAll(async () => {
    await Promise.all(
      Array.from({ length: 12 }, () => t.database.prisma.$queryRawUnsafe('SELECT 1 AS one FROM pg_sleep(0.05)')),
    );
  });

  it('with one slot left, 10 concurrent promotes of different recents: exactly one 200, the rest 409', async () => {
    await setSavedLimit(2);
    for (let round = 0; round < ROUNDS; round += 1) {
      await t.database.prisma.scenario.deleteMany({ where: { user_id: adminId } });
      await saved();
      const ids: number[] = [];
      for (let i = 0; i < 10; i += 1) ids.push(await recent());
      const answers = await Promise.all(ids.map((id, i) => promote(id, { name: `Race ${i}` })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const losers = answers.filter((a) => a.status !== 200);
      expect(losers).toHaveLength(9);
      for (const l of losers)
        expect(l).toEqual(
          expect.objectContaining({
            status: 409,
            body: { error: 'over_limit', message: expect.any(String), limit: 2 },
          }),
        );
      expect(
        await t.database.prisma.scenario.count({ where: { user_id: adminId, tool: 'calculator', kind: 'saved' } }),
      ).toBe(2);
    }
  });

  it('10 concurrent promotes of the same recent: exactly one 200, the rest 404', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await recent();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => promote(id, { name: `Same ${i}` })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const losers = answers.filter((a) => a.status !== 200);
      expect(losers).toHaveLength(9);
      for (const l of losers) expect(l).toMatchObject({ status: 404, body: { error: 'not_found' } });
      const winner = answers.findIndex((a) => a.status === 200);
      expect(await row(id)).toMatchObject({ kind: 'saved', name: `Same ${winner}` });
    }
  });

  it("two users racing: each user's limit is their own", async () => {
    await setSavedLimit(1);
    const mine = [await recent(), await recent()];
    const theirs = [await recent(memberId), await recent(memberId)];
    const answers = await Promise.all([
      ...mine.map((id) => promote(id, { name: 'mine' })),
      ...theirs.map((id) => promote(id, { name: 'theirs' }, { token: member })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    expect(await t.database.prisma.scenario.count({ where: { user_id: adminId, kind: 'saved' } })).toBe(1);
    expect(await t.database.prisma.scenario.count({ where: { user_id: memberId, kind: 'saved' } })).toBe(1);
  });

  it('a promote racing the trim of that very recent never loses a saved scenario', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      await t.database.prisma.scenario.deleteMany({ where: { user_id: adminId } });
      const ids: number[] = [];
      for (let i = 0; i < 20; i += 1) ids.push(await recent());
      const oldest = ids[0];
      const [answer] = await Promise.all([
        promote(oldest, { name: 'Keep me' }),
        ...Array.from({ length: 3 }, () => recent()),
      ]);
      const after = await row(oldest);
      if (answer.status === 200) expect(after).toMatchObject({ kind: 'saved', name: 'Keep me' });
      else {
        expect(answer).toMatchObject({ status: 404, body: { error: 'not_found' } });
        expect(after).toBeNull();
      }
    }
  });
});
