/**
 * Fuzzing every route of the running app over real HTTP (spec: Errors, Authentication): every REST route of the route
 * table, POST and GET /graphql over the schema's root fields, /healthz and unknown paths, with generated and malformed
 * bodies, query strings, path ids, credentials and GraphQL documents. At least 10,000 requests, fixed seed.
 *
 * FUZZ_SEED overrides the seed; FUZZ_SCALE multiplies the number of cases (a longer hunt outside CI).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql-server/schema.ts';
import { DEMO_CATALOGUE_PATH, startTestApp, type TestApp } from '../../testkit/app.ts';
import { checkAudit, hugeListRequests, nestedCardRequests, pushTwoParserRequests } from './audit-cases.ts';
import { graphqlGetArb, graphqlPostArb } from './graphql-requests.ts';
import { checkGraphql, checkRest, RECALCULATE_PATH, type OracleContext } from './oracle.ts';
import { describeGroup, describeRequest, groupFindings } from './report.ts';
import {
  healthzRequestArb,
  isUnauthenticated,
  restRequestArb,
  unknownPathRequestArb,
  type Credentials,
  type FuzzRequest,
  type Generators,
} from './requests.ts';
import { mergeStats, runTarget, type TargetStats } from './run.ts';
import { restTargets } from './targets.ts';
import type { Hints } from './values.ts';
import { TEST_SCALE } from '../../testkit/sizes.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/**
 * The size knob: 1 is the full run (at least 10,000 generated requests), what CI runs (CI=true); a local `npm test`
 * runs the suite's local share (TEST_SCALE, testkit/sizes.ts). FUZZ_SCALE overrides it for this file alone (5 for a
 * longer hunt). The audit's fixed cases (audit-cases.ts) run at every size.
 */
const SCALE = process.env.FUZZ_SCALE === undefined ? TEST_SCALE : Number(process.env.FUZZ_SCALE);
const MIN_REQUESTS = Math.round(10_000 * SCALE);
const CONCURRENCY = 6;
/** Cases between two state restores. */
const CHUNK = 40;
const runs = (full: number) => Math.max(1, Math.round(full * SCALE));
const GRAPHQL_POST_RUNS = runs(2_000);
const GRAPHQL_GET_RUNS = runs(500);
const HEALTHZ_RUNS = runs(100);
const UNKNOWN_PATH_RUNS = runs(400);
const REST_BUDGET = runs(7_200);
/** Brackets of the one product the nested-card audit case reads (brackets squared, were it not refused). */
const LARGE_CARD_BRACKETS = 2_000;
/** The demo financier that gets them (Wattle Agri Finance). */
const LARGE_CARD_FINANCIER = 7;

/** A stable per-target seed: adding a route does not reshuffle the others' cases. */
function seedFor(target: string): number {
  let h = SEED | 0;
  for (const c of target) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h | 0;
}

/** A stand-in for the Australian Business Register, so abn-lookup answers from a working upstream. */
const GUID = 'fuzz-guid';
function startRegister(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://register');
    const abn = url.searchParams.get('abn') ?? '';
    const callback = url.searchParams.get('callback') ?? 'c';
    const found = /^\d{11}$/.test(abn);
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(
      `${callback}(${JSON.stringify({
        Abn: found ? abn : '',
        AbnStatus: found ? 'Active' : '',
        AbnStatusEffectiveFrom: found ? '2000-02-22' : '',
        Acn: '',
        AddressDate: null,
        AddressPostcode: found ? '2600' : '',
        AddressState: found ? 'ACT' : '',
        BusinessName: found ? ['FUZZ'] : [],
        EntityName: found ? 'FUZZ PTY LTD' : '',
        EntityTypeCode: found ? 'PRV' : '',
        EntityTypeName: found ? 'Australian Private Company' : null,
        Gst: found ? '2000-07-01' : null,
        Message: found ? '' : 'No record found',
      })})`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Credentials: real sessions and API tokens, and the forged, expired and odd JWTs an attacker would try. */
async function credentialsFor(
  t: TestApp,
): Promise<{ credentials: Credentials; sessionIds: string[]; tokenIds: number[] }> {
  const users = [
    'broker.admin@demo.test',
    'broker.user@demo.test',
    'free.broker@demo.test',
    'financier.admin@demo.test',
  ];
  const sessions: Record<string, string> = {};
  for (const email of users) sessions[email] = (await t.login(email)).access;
  const admin = sessions['broker.admin@demo.test'];
  const mint = async (scope: string) => {
    const res = await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: `fuzz ${scope}`, scope } });
    if (res.status !== 201) throw new Error(`mint ${scope}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; token: string };
  };
  const read = await mint('read');
  const readWrite = await mint('read_write');
  const claims = jwt.decode(admin) as { sub: string; sid: string; exp: number };
  const now = Math.floor(Date.now() / 1000);
  const secret = t.config.jwtSecret;
  const sign = (payload: object, options: jwt.SignOptions = {}, key = secret) =>
    jwt.sign({ typ: 'access', sid: claims.sid, iat: now, exp: now + 3600, ...payload }, key, {
      algorithm: 'HS256',
      ...options,
    });
  const credentials: Credentials = {
    none: null,
    'session:broker.admin': `Bearer ${admin}`,
    'session:broker.user': `Bearer ${sessions['broker.user@demo.test']}`,
    'session:free.broker': `Bearer ${sessions['free.broker@demo.test']}`,
    'session:financier.admin': `Bearer ${sessions['financier.admin@demo.test']}`,
    'api:read': `Bearer ${read.token}`,
    'api:read_write': `Bearer ${readWrite.token}`,
    'jwt:expired': `Bearer ${sign({ sub: claims.sub, iat: now - 7200, exp: now - 3600 })}`,
    'jwt:alg-none': `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: claims.sub, sid: claims.sid, typ: 'access', exp: now + 3600 })}.`,
    'jwt:wrong-secret': `Bearer ${sign({ sub: claims.sub }, {}, 'not-the-secret')}`,
    'jwt:hs512': `Bearer ${sign({ sub: claims.sub }, { algorithm: 'HS512' })}`,
    'jwt:typ-refresh': `Bearer ${sign({ sub: claims.sub, typ: 'refresh' })}`,
    'jwt:sub-1e20': `Bearer ${sign({ sub: '1e20' })}`,
    'jwt:sub-2147483648': `Bearer ${sign({ sub: '2147483648' })}`,
    'jwt:sub--1': `Bearer ${sign({ sub: '-1' })}`,
    'jwt:sub-1.5': `Bearer ${sign({ sub: '1.5' })}`,
    'jwt:sub-numeric': `Bearer ${sign({ sub: 1 })}`,
    'jwt:sid-unknown': `Bearer ${sign({ sub: claims.sub, sid: 'no-such-session' })}`,
    'malformed:Bearer-alone': 'Bearer',
    'malformed:Bearer-space': 'Bearer ',
    'malformed:basic': 'Basic dXNlcjpwYXNz',
    'session:broker.admin-lowercase-scheme': `bearer ${admin}`,
    'malformed:two-tokens': `Bearer ${admin} ${admin}`,
    'malformed:no-scheme': admin,
    'malformed:service_sk-bare': 'Bearer service_sk_',
    'malformed:service_sk-unknown': `Bearer service_sk_tok_AAAAAAAAAAAA_${'A'.repeat(43)}`,
    'malformed:service_sk-short': 'Bearer service_sk_garbage',
    'malformed:jwt-three-dots': 'Bearer a.b.c',
  };
  return {
    credentials,
    sessionIds: Object.values(sessions).map((a) => (jwt.decode(a) as { sid: string }).sid),
    tokenIds: [read.id, readWrite.id],
  };
}

function hintsFromCatalogue(): Omit<Hints, 'refreshTokens'> {
  const c = JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8'));
  const assets = c.assets as { id: number; name: string; is_asset: boolean }[];
  return {
    assetIds: assets.filter((a) => a.is_asset).map((a) => a.id),
    rateBracketIds: (c.rate_brackets as { id: number }[]).map((r) => r.id),
    organisationIds: (c.organisations as { id: number }[]).map((o) => o.id),
    userIds: (c.users as { id: number }[]).map((u) => u.id),
    assetWords: [
      ...assets.slice(0, 12).map((a) => a.name.split(' ')[0].toLowerCase()),
      'exc',
      'ute',
      '  truck  ',
      'a',
      '%',
      '_',
      '\\',
    ],
  };
}

let t: TestApp;
let register: Server;
const stats: TargetStats[] = [];

beforeAll(async () => {
  register = await startRegister();
  t = await startTestApp({
    config: {
      abnLookupUrl: `http://127.0.0.1:${(register.address() as AddressInfo).port}`,
      abnLookupGuid: GUID,
      abnLookupTimeoutMs: 5_000,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => register?.close(resolve));
});

describe('Fuzz: no 5xx, no off-shape error body, no leaked secret, on every route', () => {
  it(`answers ${MIN_REQUESTS}+ generated and malformed requests within the contract (seed ${SEED})`, async () => {
    const { credentials, sessionIds, tokenIds } = await credentialsFor(t);
    const catalogueHints = hintsFromCatalogue();
    const ctx: OracleContext = { jwtSecret: t.config.jwtSecret, rateBracketIds: catalogueHints.rateBracketIds };
    const prisma = t.database.prisma;
    const originalUsers = await prisma.user.findMany({
      select: { id: true, first_name: true, last_name: true, organisation_id: true, is_admin: true, is_active: true },
    });

    /**
     * Each target starts from the same state: the fuzzer deactivates users, revokes its own tokens and spends
     * allowances, which would otherwise turn every later target into a 401/429 run.
     */
    const restoreState = async (): Promise<void> => {
      for (const u of originalUsers) await prisma.user.update({ where: { id: u.id }, data: u });
      await prisma.session.updateMany({ where: { id: { in: sessionIds } }, data: { revoked_at: null } });
      await prisma.apiToken.updateMany({ where: { id: { in: tokenIds } }, data: { revoked_at: null } });
      await prisma.dailyUsage.deleteMany({});
      await prisma.rateCounter.deleteMany({});
      // Failed sign-ins from this one address would lock every later target's logins out (429).
      await prisma.signInThrottle.deleteMany({});
    };
    const generatorsFor = async (): Promise<Generators> => {
      // A refresh token of its own per target, for refresh and logout to spend.
      const spare = await t.login('broker.user@demo.test');
      return { credentials, hints: { ...catalogueHints, refreshTokens: [spare.refresh] } };
    };

    const working = credentials['session:broker.admin']!;
    const withCredential = (req: FuzzRequest, which: 'working' | 'none'): FuzzRequest | null => {
      const auth = req.tags.find((tag) => tag.startsWith('auth:'));
      if (!auth || !isUnauthenticated(req.tags)) return null;
      const { authorization: _dropped, ...headers } = req.headers;
      return which === 'working'
        ? {
            ...req,
            headers: { ...headers, authorization: working },
            tags: req.tags.map((tag) => (tag === auth ? 'auth:session:broker.admin' : tag)),
          }
        : { ...req, headers, tags: req.tags.map((tag) => (tag === auth ? 'auth:none' : tag)) };
    };
    const rest = restTargets(schema);
    const restRuns = Math.ceil(REST_BUDGET / rest.length);
    type Plan = {
      name: string;
      runs: number;
      arb: (g: Generators) => fc.Arbitrary<FuzzRequest>;
      judge: typeof checkRest;
      /** Fixed cases instead of generated ones (made when the plan runs). */
      fixed?: () => Promise<FuzzRequest[]>;
    };
    /** A financier's card with one product of LARGE_CARD_BRACKETS brackets (made last: it slows pricing down). */
    const largeCard = async (): Promise<number> => {
      const organisationId = LARGE_CARD_FINANCIER;
      const product = await prisma.product.findFirstOrThrow({ where: { organisation_id: organisationId } });
      await prisma.rateBracket.createMany({
        data: Array.from({ length: LARGE_CARD_BRACKETS }, (_, i) => ({
          name: `fuzz large ${i}`,
          organisation_id: organisationId,
          product_id: product.id,
          base_min: 5,
          base_max: 6,
        })),
      });
      return organisationId;
    };
    const plans: Plan[] = [
      ...rest.map((target) => ({
        name: target.name,
        runs: restRuns,
        arb: (g: Generators) => restRequestArb(target, g),
        judge: checkRest,
      })),
      { name: 'POST /graphql', runs: GRAPHQL_POST_RUNS, arb: (g) => graphqlPostArb(schema, g), judge: checkGraphql },
      { name: 'GET /graphql', runs: GRAPHQL_GET_RUNS, arb: (g) => graphqlGetArb(schema, g), judge: checkGraphql },
      { name: 'GET /healthz', runs: HEALTHZ_RUNS, arb: (g) => healthzRequestArb(g), judge: checkRest },
      {
        name: 'unknown paths',
        runs: UNKNOWN_PATH_RUNS,
        arb: (g) =>
          unknownPathRequestArb(
            g,
            rest.map((r) => r.path),
          ),
        judge: checkRest,
      },
      // Last: the large card it makes would slow every later pricing request.
      {
        name: 'audit cases',
        runs: 0,
        arb: () => fc.constant(null as never),
        judge: checkAudit,
        fixed: async () => [
          ...hugeListRequests(rest, credentials),
          ...pushTwoParserRequests(credentials),
          ...nestedCardRequests(await largeCard(), credentials),
        ],
      },
    ];

    console.log(
      `fuzz: seed ${SEED} (FUZZ_SEED to change), ${plans.length} targets, ${rest.length} REST routes from the route table, concurrency ${CONCURRENCY}`,
    );
    for (const plan of plans) {
      await restoreState();
      const cases = plan.fixed
        ? await plan.fixed()
        : fc.sample(plan.arb(await generatorsFor()), { seed: seedFor(plan.name), numRuns: plan.runs });
      // In chunks, the state restored before each: one request that demotes or moves a user would otherwise turn the
      // rest of the target into 403s and 404s that never reach the code behind them.
      const parts: TargetStats[] = [];
      for (let i = 0; i < cases.length; i += CHUNK) {
        if (i > 0) await restoreState();
        parts.push(
          await runTarget(
            plan.name,
            cases.slice(i, i + CHUNK),
            t.baseUrl,
            CONCURRENCY,
            plan.judge,
            ctx,
            withCredential,
          ),
        );
      }
      stats.push(mergeStats(parts));
    }

    const sent = stats.reduce((n, s) => n + s.sent, 0);
    const unsent = stats.reduce((n, s) => n + s.unsent, 0);
    const cases = stats.reduce((n, s) => n + s.cases, 0);
    const secrets = [t.config.jwtSecret];
    const lines = [
      '',
      `fuzz summary (seed ${SEED}): ${sent} requests sent, ${cases} cases, ${unsent} refused by the HTTP client before sending`,
    ];
    for (const s of stats) {
      const statuses = [...s.byStatus.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}×${v}`)
        .join(' ');
      lines.push(
        `  ${s.target.padEnd(48)} ${String(s.sent).padStart(5)} sent ${String(Math.round(s.ms / 100) / 10).padStart(5)}s  5xx: ${s.fiveHundreds}${s.documented500.length ? ` (documented recalculation 500: ${s.documented500.length})` : ''}  [${statuses}]`,
      );
    }
    if (process.env.FUZZ_DEBUG)
      for (const s of stats)
        if (s.slowest)
          lines.push(
            `  slowest on ${s.target}: ${Math.round(s.slowest.ms)} ms: ${describeRequest(s.slowest.req, [t.config.jwtSecret]).slice(0, 300)}`,
          );
    const fiveByRoute = stats.filter((s) => s.fiveHundreds > 0).map((s) => `${s.target}: ${s.fiveHundreds}`);
    lines.push(`5xx by route: ${fiveByRoute.length ? fiveByRoute.join('; ') : 'none'}`);
    const documented = stats.flatMap((s) => s.documented500);
    lines.push(`documented POST ${RECALCULATE_PATH} 500s (row could not be re-priced): ${documented.length}`);
    for (const req of documented.slice(0, 3)) lines.push(`    ${describeRequest(req, secrets)}`);
    for (const s of stats)
      for (const [note, n] of s.notes) lines.push(`note (not failing): ${s.target}: ${note} ×${n}`);
    const groups = groupFindings(stats);
    lines.push(
      `violations: ${stats.reduce((n, s) => n + s.findings.length, 0)} in ${groups.length} distinct groups (target | rule | status)`,
    );
    for (const g of groups) lines.push(describeGroup(g, secrets));
    console.log(lines.join('\n'));

    expect(sent, 'requests sent').toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(unsent, 'cases the HTTP client refused to send').toBeLessThan(sent / 20);
    expect(
      groups.map((g) => `${g.key} ×${g.count}`),
      'violations (details printed above)',
    ).toEqual([]);
  }, 900_000);
});
