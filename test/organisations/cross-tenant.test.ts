/**
 * Cross-tenant probes (reliability AZ1): for every REST route and GraphQL field that takes an organisation, user, rate
 * bracket, scenario or API-token id, a caller from another organisation gets exactly the answer of a missing id (same
 * status, same body), the body never carries the other organisation's data, and nothing the probes touch changes.
 *
 * Ids come from the demo catalogue (organisations, users, rate brackets) plus scenarios and tokens made here for every
 * user; fast-check picks the caller, the foreign id, a missing id and the request body. "Foreign" is what the caller
 * may not reach: another organisation's organisation and users; another user's scenarios and tokens; a rate bracket
 * outside the caller's book (docs/api-decisions.md "Tenancy" and "Recalculation").
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPasswordHash } from '../../testkit/passwords.ts';
import { DEMO_CATALOGUE_PATH, startTestApp, type TestApp } from '../../testkit/app.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';
import { sized } from '../../testkit/sizes.ts';

interface DemoCatalogue {
  organisations: { id: number; name: string; type: string }[];
  users: { id: number; email: string; last_name: string; organisation_id: number | null }[];
  rate_brackets: { id: number; organisation_id: number; type?: string }[];
}
const demo = JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')) as DemoCatalogue;

interface Caller {
  email: string;
  userId: number;
  organisationId: number;
  token: string;
  brackets: (b: DemoCatalogue['rate_brackets'][number]) => boolean;
}
interface Probe {
  status: number;
  body: unknown;
}

let t: TestApp;
let callers: Caller[];
/** Per user: the ids of the scenarios and tokens made for them. */
const scenariosOf = new Map<number, number[]>();
const tokensOf = new Map<number, number[]>();
/** Per organisation: strings only that organisation's data contains. */
const markersOf = new Map<number, string[]>();
/** Every user's organisation (null: none), the demo's and those made here. */
const organisationOfUser = new Map<number, number | null>();
let snapshotBefore = '';
let probes = 0;

/**
 * What the probes could change if one got through: users, scenarios, tokens, organisations. The lender's own
 * scenarios are left out: its metered probes record recents of its own, which may push its oldest recent out.
 */
async function protectedState(): Promise<string> {
  const prisma = t.database.prisma;
  const [users, scenarios, tokens, organisations] = await Promise.all([
    prisma.user.findMany({
      orderBy: { id: 'asc' },
      select: { id: true, first_name: true, last_name: true, organisation_id: true, is_admin: true, is_active: true },
    }),
    prisma.scenario.findMany({
      where: { user_id: { not: 4 } },
      orderBy: { id: 'asc' },
      select: { id: true, user_id: true, kind: true, name: true },
    }),
    prisma.apiToken.findMany({ orderBy: { id: 'asc' }, select: { id: true, user_id: true, revoked_at: true } }),
    prisma.organisation.findMany({
      orderBy: { id: 'asc' },
      select: { id: true, name: true, abn: true, updated_at: true },
    }),
  ]);
  return JSON.stringify({ users, scenarios, tokens, organisations });
}

beforeAll(async () => {
  t = await startTestApp();
  const prisma = t.database.prisma;
  // Organisation 10 has no users in the demo: give it one, and add a user with no organisation at all.
  const hash = await testPasswordHash('probe-password-1');
  const extra = [
    await prisma.user.create({
      data: {
        email: 'bayside.admin@probe.test',
        last_name: 'Baysidesecret',
        password_hash: hash,
        organisation_id: 10,
        is_admin: true,
        is_email_verified: true,
      },
    }),
    await prisma.user.create({
      data: {
        email: 'nobody@probe.test',
        last_name: 'Nobodysecret',
        password_hash: hash,
        organisation_id: null,
        is_email_verified: true,
      },
    }),
  ];
  const users = [
    ...demo.users.map((u) => ({ ...u })),
    ...extra.map((u) => ({ id: u.id, email: u.email, last_name: u.last_name, organisation_id: u.organisation_id })),
  ];
  for (const u of users) organisationOfUser.set(u.id, u.organisation_id);

  // Each organisation's own data, made recognisable: an ABN, and its users' emails, names, scenarios and tokens.
  for (const o of demo.organisations) {
    const abn = `5${String(o.id).padStart(10, '0')}`;
    await prisma.organisation.update({ where: { id: o.id }, data: { abn } });
    markersOf.set(o.id, [o.name, abn]);
  }
  for (const u of users) {
    const markers = u.organisation_id === null ? [] : markersOf.get(u.organisation_id)!;
    markers.push(u.email, u.last_name, `secret-scenario-${u.id}`, `secret-token-${u.id}`);
    const scenarios = [];
    for (const kind of ['recent', 'saved'] as const) {
      scenarios.push(
        (
          await prisma.scenario.create({
            data: {
              user_id: u.id,
              kind,
              tool: 'calculator',
              name: kind === 'saved' ? `secret-scenario-${u.id}` : null,
              request: { cost: '12345.67', marker: `secret-scenario-${u.id}` },
            },
          })
        ).id,
      );
    }
    scenariosOf.set(u.id, scenarios);
  }

  const login = async (email: string, password?: string) => (await t.login(email, password)).access;
  const sessionOf = new Map<number, string>();
  for (const u of users)
    sessionOf.set(u.id, await login(u.email, u.organisation_id === null || u.id > 4 ? 'probe-password-1' : undefined));
  for (const u of users) {
    const ids = [];
    for (const scope of ['read', 'read_write']) {
      const res = await t.rest('POST', '/api/v1/api-tokens', {
        token: sessionOf.get(u.id),
        body: { name: `secret-token-${u.id}`, scope },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id as number);
    }
    tokensOf.set(u.id, ids);
  }

  const everyBracket = () => true;
  callers = [
    { email: 'broker.admin@demo.test', userId: 1, organisationId: 8, token: sessionOf.get(1)!, brackets: everyBracket }, // Pro, BID
    { email: 'broker.user@demo.test', userId: 2, organisationId: 8, token: sessionOf.get(2)!, brackets: everyBracket }, // not an admin
    {
      email: 'free.broker@demo.test',
      userId: 3,
      organisationId: 9,
      token: sessionOf.get(3)!,
      brackets: (b) => b.type !== 'consumer',
    },
    {
      email: 'financier.admin@demo.test',
      userId: 4,
      organisationId: 1,
      token: sessionOf.get(4)!,
      brackets: (b) => b.organisation_id === 1,
    },
    {
      email: 'bayside.admin@probe.test',
      userId: extra[0].id,
      organisationId: 10,
      token: sessionOf.get(extra[0].id)!,
      brackets: (b) => b.type !== 'consumer',
    },
  ];
  snapshotBefore = await protectedState();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------------------------

async function graphql(token: string, query: string, variables: Record<string, unknown>): Promise<Probe> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() };
}
const rest = async (token: string, method: string, url: string, body?: unknown): Promise<Probe> => {
  const res = await t.rest(method, url, { token, body });
  return { status: res.status, body: res.body };
};

/** Ids no object has: far past every id made here, within what a path segment accepts (9 digits). */
const missingId = fc.integer({ min: 100_000, max: 999_999_999 });

const userEdit = fc.record(
  {
    first_name: fc.string({ maxLength: 12 }),
    last_name: fc.constantFrom('Probe', 'x'.repeat(151)),
    organisation_id: fc.constantFrom(null, 1, 8, 9, 10),
    is_admin: fc.boolean(),
    is_active: fc.boolean(),
  },
  { requiredKeys: [] },
);
const errorFields = '__typename ... on Error { message code }';

interface Entry {
  name: string;
  /** The ids this caller may not reach. */
  foreign: (c: Caller) => number[];
  /** Extra generated request input (a body), shared by the foreign and the missing request. */
  input?: fc.Arbitrary<Record<string, unknown>>;
  call: (c: Caller, id: number, input: Record<string, unknown>) => Promise<Probe>;
}

const financierIds = demo.organisations.filter((o) => o.type === 'f').map((o) => o.id);
const otherOrganisations = (c: Caller) => demo.organisations.map((o) => o.id).filter((id) => id !== c.organisationId);
const otherOrganisationsUsers = (c: Caller) =>
  [...organisationOfUser].filter(([, org]) => org !== c.organisationId).map(([id]) => id);
const otherUsers = (c: Caller) => [...organisationOfUser.keys()].filter((id) => id !== c.userId);
const scenariosOfOthers = (c: Caller) => otherUsers(c).flatMap((u) => scenariosOf.get(u)!);
const tokensOfOthers = (c: Caller) => otherUsers(c).flatMap((u) => tokensOf.get(u)!);
const bracketsOutsideBook = (c: Caller) => demo.rate_brackets.filter((b) => !c.brackets(b)).map((b) => b.id);

/** preferred_financier takes organisation ids: a lender naming another financier gets the answer of an unknown id. */
const DEAL = DEMO_DEAL;
/** Only the lender probes metered runs: its Enterprise plan has no daily allowance to exhaust. */
const lenderOnly = (c: Caller) => (c.organisationId === 1 ? otherOrganisations(c) : []);
/** A run's own scenario id differs from run to run; everything else must not. */
const withoutRunId = (p: Probe): Probe => {
  const { scenario_id, ...rest } = p.body as Record<string, unknown>;
  return { status: p.status, body: rest };
};

const ENTRIES: Entry[] = [
  {
    name: 'GET /organisations/{id}',
    // A financier in a broker's results answers its public profile (test/organisations/organisation-view.test.ts).
    foreign: (c) => otherOrganisations(c).filter((id) => c.organisationId === 1 || !financierIds.includes(id)),
    call: (c, id) => rest(c.token, 'GET', `/api/v1/organisations/${id}`),
  },
  {
    name: 'organisation(id)',
    foreign: otherOrganisations,
    call: (c, id) =>
      graphql(
        c.token,
        `query($id: Int!) { organisation(id: $id) { ${errorFields} ... on Organisation { id name abn } } }`,
        { id },
      ),
  },
  {
    name: 'PUT /users/{id}',
    foreign: otherOrganisationsUsers,
    input: userEdit,
    call: (c, id, body) => rest(c.token, 'PUT', `/api/v1/users/${id}`, body),
  },
  {
    name: 'updateUser(id)',
    foreign: otherOrganisationsUsers,
    input: userEdit,
    call: (c, id, input) =>
      graphql(
        c.token,
        `mutation($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { ${errorFields} ... on User { id email } } }`,
        { id, input },
      ),
  },
  {
    name: 'POST /calculator/recalculate',
    foreign: bracketsOutsideBook,
    call: (c, id) => rest(c.token, 'POST', '/api/v1/calculator/recalculate', recalculationBody(id)),
  },
  {
    name: 'recalculate(input)',
    foreign: bracketsOutsideBook,
    call: (c, id) =>
      graphql(
        c.token,
        `query($input: RecalculateInput!) { recalculate(input: $input) { ${errorFields} ... on RecalculateResult { repayment_min } } }`,
        { input: recalculationBody(id) },
      ),
  },
  {
    name: 'POST /calculator/scenarios/{id}/promote',
    foreign: scenariosOfOthers,
    call: (c, id) => rest(c.token, 'POST', `/api/v1/calculator/scenarios/${id}/promote`, { name: 'probe' }),
  },
  {
    name: 'promoteScenario(id)',
    foreign: scenariosOfOthers,
    call: (c, id) =>
      graphql(
        c.token,
        `mutation($id: Int!) { promoteScenario(id: $id, name: "probe") { ${errorFields} ... on Scenario { id name } } }`,
        { id },
      ),
  },
  {
    name: 'renameScenario(id)',
    foreign: scenariosOfOthers,
    call: (c, id) =>
      graphql(
        c.token,
        `mutation($id: Int!) { renameScenario(id: $id, name: "probe") { ${errorFields} ... on Scenario { id name } } }`,
        { id },
      ),
  },
  {
    name: 'deleteScenario(id)',
    foreign: scenariosOfOthers,
    call: (c, id) =>
      graphql(c.token, `mutation($id: Int!) { deleteScenario(id: $id) { __typename ... on Error { message code } } }`, {
        id,
      }),
  },
  {
    name: 'DELETE /api-tokens/{id}',
    foreign: tokensOfOthers,
    call: (c, id) => rest(c.token, 'DELETE', `/api/v1/api-tokens/${id}`),
  },
  {
    name: 'revokeApiToken(id)',
    foreign: tokensOfOthers,
    call: (c, id) =>
      graphql(
        c.token,
        `mutation($id: Int!) { revokeApiToken(id: $id) { ${errorFields} ... on ApiToken { id name } } }`,
        { id },
      ),
  },
  {
    name: 'POST /calculator preferred_financier',
    foreign: lenderOnly,
    call: async (c, id) =>
      withoutRunId(await rest(c.token, 'POST', '/api/v1/calculator', { ...DEAL, preferred_financier: [id] })),
  },
  {
    name: 'POST /matrix-calculator/ preferred_financier',
    foreign: lenderOnly,
    call: async (c, id) =>
      withoutRunId(await rest(c.token, 'POST', '/api/v1/matrix-calculator/', { ...DEAL, preferred_financier: [id] })),
  },
];

/** Probes per entry point: the full count in CI, a share locally (testkit/sizes.ts). */
const FULL_RUNS_PER_ENTRY = 45;
const RUNS_PER_ENTRY = sized(FULL_RUNS_PER_ENTRY, 5);

describe("every id-taking route and field: another organisation's id answers exactly like a missing id, and leaks nothing", () => {
  for (const entry of ENTRIES) {
    it(entry.name, async () => {
      const reachable = callers.filter((c) => entry.foreign(c).length > 0);
      expect(reachable.length, 'some caller has foreign ids to probe').toBeGreaterThan(0);
      const probe = fc.constantFrom(...reachable).chain((caller) =>
        fc.record({
          caller: fc.constant(caller),
          foreign: fc.constantFrom(...entry.foreign(caller)),
          missing: missingId,
          input: entry.input ?? fc.constant({}),
        }),
      );
      await fc.assert(
        fc.asyncProperty(probe, async ({ caller, foreign, missing, input }) => {
          const answer = await entry.call(caller, foreign, input);
          const absent = await entry.call(caller, missing, input);
          probes += 1;
          expect(answer, `${caller.email} -> ${foreign} vs missing ${missing}`).toEqual(absent);
          expect([200, 404], JSON.stringify(answer.body)).toContain(answer.status); // GraphQL answers 200 with a typed error
          const text = JSON.stringify(answer.body);
          for (const [organisationId, markers] of markersOf) {
            if (organisationId === caller.organisationId) continue;
            for (const marker of markers)
              expect(text.includes(marker), `${entry.name} as ${caller.email} carries "${marker}"`).toBe(false);
          }
        }),
        { numRuns: RUNS_PER_ENTRY, seed: Number(process.env.PROBE_SEED ?? 20261123) },
      );
    }, 300_000);
  }

  it('the probes changed nothing: users, scenarios, tokens and organisations are as before', async () => {
    expect(await protectedState()).toBe(snapshotBefore);
  });

  it(`every probe ran (${ENTRIES.length} entry points x ${RUNS_PER_ENTRY}; at full size at least 500)`, () => {
    expect(probes).toBeGreaterThanOrEqual(ENTRIES.length * RUNS_PER_ENTRY);
    expect(ENTRIES.length * FULL_RUNS_PER_ENTRY).toBeGreaterThanOrEqual(500);
  });
});
