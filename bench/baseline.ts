/**
 * The hand-written baseline: POST /api/v1/matrix-calculator/ written the fastest honest way, the floor the gateway
 * (Express + REST bridge + GraphQL + Prisma) is measured against. It does the same work the real route does and no
 * more:
 *
 *   - reads the JSON body (content type checked, size bounded) and validates it with the same `validatedDeal`;
 *   - verifies the access token with jsonwebtoken (HS256 pinned, the app's secret as a KeyObject, the same claim checks);
 *   - reads the caller in ONE prepared statement: the user (active), the session (theirs, not revoked), the
 *     organisation's type, plan and overrides (the surface's entitlement, the allowances, the paywall) and the
 *     catalogue version. Permissions and API-token columns are not read: this route does not use them;
 *   - takes the process's catalogue snapshot for that version (the app's own cache, as the real route does);
 *   - runs the same engines (criteria, pricing, join, paywall, rows) on it, for the caller's book;
 *   - meters with the same `record_run` statement (allowances all-or-nothing, the recent scenario with its summary);
 *   - answers the same JSON, written by a serialiser that knows the shape (field order of the REST document).
 *
 * Database access is the driver itself with prepared statements, no ORM: a `pg.Pool` of the same size as the app's
 * (named statements) on PostgreSQL; on PGlite, the app's own PGlite instance through its protocol API: each statement
 * is parsed once as a named prepared statement, and a run sends Bind + Execute + Sync in one call (PGlite's `query`
 * parses, describes, binds and executes in six calls into the WASM module, every time).
 * No GraphQL, no Express routing beyond the one route. Only the success path and the refusals the real route makes
 * before metering are written; `assertSameBody` proves the body equals the real route's.
 */
import { createSecretKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { concat } from '../src/lib/pglite-prepared.ts';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import type { Config } from '../src/lib/config.ts';
import { calendarDay } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { pgTimeouts } from '../src/lib/db.ts';
import type { PlanName } from '../src/lib/vocabulary.ts';
import { effectiveTerms, type PlanOverrides } from '../src/lib/plans.ts';
import type { CatalogueSnapshot } from '../src/modules/catalogue/snapshot.ts';
import { validatedDeal, type Deal, type DealRequest } from '../src/modules/deal/index.ts';
import { evaluateApprovals } from '../src/modules/matrix/criteria.ts';
import { joinMatrixCalculator } from '../src/modules/matrix/join.ts';
import { matrixCalculatorRows, type MatrixCalculatorRow } from '../src/modules/matrix/rows.ts';
import { priceDeal } from '../src/modules/pricing/engine.ts';
import { RECENT_SCENARIO_LIMIT } from '../src/modules/scenarios/record-run.ts';
import { scenarioSummary } from '../src/modules/scenarios/summary.ts';

/** The caller and the catalogue version, as the baseline reads them. */
const CALLER_SQL = `SELECT u.is_active, s.user_id AS session_user_id, s.revoked_at IS NOT NULL AS session_revoked,
       o.id AS organisation_id, o.type::text AS org_type, o.plan::text AS org_plan, o.plan_overrides::text AS org_overrides,
       (SELECT version FROM catalogue_state WHERE id = 1)::text AS catalogue_version
  FROM users u
  LEFT JOIN organisations o ON o.id = u.organisation_id
  LEFT JOIN sessions s ON s.id = $2::text
 WHERE u.id = $1::int`;
/** The same metering statement as src/modules/scenarios/record-run.ts. */
const RECORD_RUN_SQL =
  'SELECT ok, metric, used, "limit", scenario_id FROM record_run($1::int, $2::text, $3::text[], $4::int[], $5::text, $6::jsonb, $7::jsonb, $8::int)';

/** Every value as PostgreSQL's text form (null = SQL NULL): the one format both drivers below agree on. */
type Cell = string | null;

/** A statement runner over a driver: prepared once, executed with text parameters, rows of text cells. */
export interface BaselineDriver {
  kind: 'pglite' | 'postgres';
  run(name: 'caller' | 'record_run', params: Cell[]): Promise<Cell[][]>;
  /** Statements sent (for statements per request). */
  statements(): number;
  close(): Promise<void>;
}

const TEXTS = { caller: CALLER_SQL, record_run: RECORD_RUN_SQL } as const;

/** PostgreSQL: a pg.Pool like the app's (10 connections, the same timeouts); named statements, text results. */
export function pgDriver(databaseUrl: string): BaselineDriver {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, ...pgTimeouts() });
  let count = 0;
  // Every column as text (no type parsing): the baseline reads each value once, itself.
  const types = { getTypeParser: () => (value: string) => value };
  return {
    kind: 'postgres',
    async run(name, params) {
      count += 1;
      const r = await pool.query<Cell[]>({
        name: `baseline_${name}`,
        text: TEXTS[name],
        values: params,
        rowMode: 'array',
        types,
      });
      return r.rows;
    },
    statements: () => count,
    close: () => pool.end(),
  };
}

// ---- PGlite through its protocol API: a few frontend messages written by hand, the replies read by hand ----------

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

function message(type: string, parts: (Uint8Array | number[])[]): Uint8Array {
  const length = 4 + parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(1 + length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, length);
  let at = 5;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const cstring = (s: string) => [...utf8.encode(s), 0];
const int16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const int32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const SYNC = message('S', []);
const EXECUTE = message('E', [cstring(''), int32(0)]);

function bind(statement: string, params: Cell[]): Uint8Array {
  const values: number[] = [];
  for (const p of params) {
    if (p === null) values.push(...int32(-1));
    else {
      const bytes = utf8.encode(p);
      values.push(...int32(bytes.length));
      for (const b of bytes) values.push(b);
    }
  }
  // Unnamed portal; no format codes (all text) for parameters and results.
  return message('B', [cstring(''), cstring(statement), int16(0), int16(params.length), values, int16(0)]);
}

/** DataRows of a reply as text cells; an ErrorResponse becomes a thrown Error with PostgreSQL's message. */
function readReply(reply: Uint8Array): Cell[][] {
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  const rows: Cell[][] = [];
  let error: string | null = null;
  for (let at = 0; at < reply.length; ) {
    const type = reply[at];
    const length = view.getInt32(at + 1);
    const body = at + 5;
    if (type === 0x44 /* D */) {
      const columns = view.getInt16(body);
      const row: Cell[] = new Array(columns);
      let p = body + 2;
      for (let c = 0; c < columns; c++) {
        const n = view.getInt32(p);
        p += 4;
        if (n < 0) row[c] = null;
        else {
          row[c] = decoder.decode(reply.subarray(p, p + n));
          p += n;
        }
      }
      rows.push(row);
    } else if (type === 0x45 /* E */) {
      // Fields: a type byte and a C string each; 'M' is the message.
      let p = body;
      while (reply[p] !== 0) {
        const field = reply[p];
        const end = reply.indexOf(0, p + 1);
        if (field === 0x4d) error = decoder.decode(reply.subarray(p + 1, end));
        p = end + 1;
      }
      error ??= 'database error';
    }
    at += 1 + length;
  }
  if (error) throw new Error(error);
  return rows;
}

/** PGlite: the app's own instance (one connection, shared); statements parsed once, then one call per run. */
export async function pgliteDriver(pglite: PGlite): Promise<BaselineDriver> {
  let count = 0;
  const names = { caller: 'baseline_caller', record_run: 'baseline_record_run' } as const;
  const exchange = (bytes: Uint8Array) =>
    pglite.runExclusive(async () => readReply(await pglite.execProtocolRaw(bytes, { syncToFs: false })));
  for (const [key, name] of Object.entries(names)) {
    // A statement of this name survives from an earlier baseline on the same instance: replace it.
    await exchange(concat([message('C', [[0x53], cstring(name)]), SYNC]));
    await exchange(concat([message('P', [cstring(name), cstring(TEXTS[key as keyof typeof names]), int16(0)]), SYNC]));
  }
  return {
    kind: 'pglite',
    run(name, params) {
      count += 1;
      return exchange(concat([bind(names[name], params), EXECUTE, SYNC]));
    },
    statements: () => count,
    close: async () => {},
  };
}

// ---- The route -----------------------------------------------------------------------------------------------------

export interface BaselineOptions {
  config: Config;
  now: () => Date;
  driver: BaselineDriver;
  /** The process's catalogue snapshot for a version (the app's CatalogueCache). */
  snapshot: (version: bigint) => Promise<CatalogueSnapshot>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const JSON_TYPE = 'application/json; charset=utf-8';
function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const fail = (res: ServerResponse, status: number, error: string) => send(res, status, JSON.stringify({ error }));

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request body, parsed: application/json only, at most `limit` bytes. */
function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      reject(new Refusal(415, 'Content-Type must be application/json.'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Refusal(413, 'Request body too large.'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Refusal(400, 'Malformed JSON.'));
      }
    });
    req.on('error', reject);
  });
}

// The REST body's shape (src/rest/routes/matrix/matrix-calculator.route.ts with src/rest/fragments.ts's
// MatrixCalculatorRowFields): fields in that order. Strings go through JSON.stringify; numbers and booleans print as
// JSON does; lists of strings (missing_fields) likewise.
const str = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));
const num = (n: number | null) => (n === null ? 'null' : JSON.stringify(n));
function rowJson(r: MatrixCalculatorRow): string {
  return `{"organisation_id":${r.organisation_id},"organisation_name":${str(r.organisation_name)},"approval_id":${r.approval_id},"approval_name":${str(r.approval_name)},"doc_level":${str(r.doc_level)},"status":${str(r.status)},"missing_fields":${JSON.stringify(r.missing_fields)},"deposit_percentage":${num(r.deposit_percentage)},"deposit_amount":${num(r.deposit_amount)},"deposit_required":${num(r.deposit_required)},"max_term":${num(r.max_term)},"product_id":${r.product_id},"product_name":${str(r.product_name)},"rate_bracket_id":${r.rate_bracket_id},"rate_bracket_name":${str(r.rate_bracket_name)},"base_min":${str(r.base_min)},"base_max":${str(r.base_max)},"e_min":${str(r.e_min)},"e_max":${str(r.e_max)},"repayment_min":${str(r.repayment_min)},"repayment_max":${str(r.repayment_max)},"balloon":${num(r.balloon)},"commission":${num(r.commission)},"masked":${r.masked},"priced_bracket_count":${r.priced_bracket_count}}`;
}

/** The shown row with the lowest effective rate, then repayment (runMatrixCalculator's summary rule). */
function cheapestShown(rows: readonly MatrixCalculatorRow[]): MatrixCalculatorRow | undefined {
  let best: MatrixCalculatorRow | undefined;
  for (const row of rows) {
    if (row.e_min === null || row.repayment_min === null) continue;
    if (
      best === undefined ||
      Number(row.e_min) < Number(best.e_min) ||
      (Number(row.e_min) === Number(best.e_min) && Number(row.repayment_min) < Number(best.repayment_min!))
    )
      best = row;
  }
  return best;
}

const USER_ID = /^[1-9][0-9]{0,9}$/;
const SESSION_ID = /^[0-9a-f]{32}$/;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function baselineHandler(options: BaselineOptions): Handler {
  const { config, driver } = options;
  const key = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  const matrixDisabled = config.disabledSurfaces.includes('matrix_calculator');

  async function handle(req: IncomingMessage): Promise<string> {
    // 1. The access token (401 before the body is read, as the real route does).
    const bearer = BEARER.exec(req.headers.authorization ?? '');
    if (!bearer) throw new Refusal(401, 'Authentication required.');
    const now = options.now();
    let sub: unknown;
    let sid: unknown;
    try {
      const claims = jwt.verify(bearer[1], key, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(now.getTime() / 1000),
      });
      if (typeof claims !== 'object' || claims.typ !== 'access') throw new Error('not an access token');
      sub = claims.sub;
      sid = claims.sid;
    } catch {
      throw new Refusal(401, 'Authentication required.');
    }
    if (typeof sub !== 'string' || !USER_ID.test(sub) || Number(sub) > 2_147_483_647 || typeof sid !== 'string')
      throw new Refusal(401, 'Authentication required.');
    if (!SESSION_ID.test(sid)) throw new Refusal(401, 'Authentication required.');

    // 2. The caller and the catalogue version. The body is read meanwhile, but judged after the credentials (401
    // before 400, as the real route answers).
    const callerRows = driver.run('caller', [sub, sid]);
    const bodyRead = readJson(req, config.maxBodyBytes).then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    const [row] = await callerRows;
    if (!row) throw new Refusal(401, 'Authentication required.');
    const [active, sessionUser, sessionRevoked, organisationId, orgType, orgPlan, orgOverrides, version] = row;
    if (active !== 't' || sessionUser !== sub || sessionRevoked !== 'f')
      throw new Refusal(401, 'Authentication required.');
    const read = await bodyRead;
    if (read.error) throw read.error;
    const body = read.value;
    const deal: Deal = validatedDeal(body as DealRequest, 'matrix_calculator', now);
    if (matrixDisabled || organisationId === null) throw new Refusal(403, 'Feature disabled.');
    const terms = effectiveTerms(
      orgPlan as PlanName,
      orgOverrides === null ? null : (JSON.parse(orgOverrides) as PlanOverrides),
    );
    if (!terms.entitlements.includes('matrix.enabled')) throw new Refusal(403, 'Entitlement required.');

    // 3. The snapshot and the engines (a financier sees only its own book).
    const snapshot = await options.snapshot(BigInt(version!));
    if (!snapshot.liveAssetIds.has(deal.asset_value)) throw new Refusal(400, 'Unknown asset.');
    const scope = orgType === 'f' ? new Set([Number(organisationId)]) : null;
    const outcomes = evaluateApprovals(snapshot.criteria, deal, snapshot.ancestry, { organisationIds: scope });
    const priced = priceDeal(snapshot.pricingIndex, deal, { organisationIds: scope, type: 'commercial' });
    const join = joinMatrixCalculator(outcomes, priced, snapshot.organisationNames);
    const rows = matrixCalculatorRows(join.rows, { masked: terms.paywalled });

    // 4. Metering: both allowances, and the recent scenario with its summary, in one statement.
    const summary = scenarioSummary(deal, snapshot.assetsById.get(deal.asset_value)?.name ?? '', cheapestShown(rows));
    const [metered] = await driver.run('record_run', [
      sub,
      calendarDay(now, config.serviceTimeZone),
      '{calculator,matrix}',
      `{${terms.calculator_allowance ?? 'NULL'},${terms.matrix_allowance ?? 'NULL'}}`,
      'matrix_calculator',
      JSON.stringify(body ?? null),
      JSON.stringify(summary),
      String(RECENT_SCENARIO_LIMIT),
    ]);
    if (metered[0] !== 't')
      throw new Refusal(429, `Daily ${metered[1]} allowance reached (${metered[2]}/${metered[3]}).`);

    let json = '{"results":[';
    for (let k = 0; k < rows.length; k++) json += k ? `,${rowJson(rows[k])}` : rowJson(rows[k]);
    return `${json}],"priced_count":${join.priced_count},"destination_count":${join.destination_count},"degraded":null}`;
  }

  return (req, res) => {
    handle(req).then(
      (json) => send(res, 200, json),
      (error: unknown) => {
        if (error instanceof Refusal) fail(res, error.status, error.message);
        else if (error instanceof DomainError) fail(res, 400, error.message);
        else fail(res, 500, String((error as Error).message ?? error));
      },
    );
  };
}

/**
 * The baseline's body equals the real route's for the same deal, ids of the recent scenario aside (neither body
 * carries one today; the comparison drops nothing): byte for byte, or a description of the first difference.
 */
export function sameBody(baseline: string, real: string): string | null {
  if (baseline === real) return null;
  let k = 0;
  while (k < baseline.length && baseline[k] === real[k]) k++;
  return `bodies differ at character ${k}: baseline ...${baseline.slice(Math.max(0, k - 60), k + 60)}... real ...${real.slice(Math.max(0, k - 60), k + 60)}...`;
}
