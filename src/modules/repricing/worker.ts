/**
 * Re-pricing saved scenarios after catalogue changes (docs/scenarios.md "Re-pricing saved scenarios"). Off the request
 * path, in passes like the notification delivery worker; every step is a claimed queue, so any number of processes
 * share the work and each (scenario, catalogue version) is re-priced once:
 * 1. Claim unprocessed rows of the change log (catalogue_changes, written by triggers in each writer's transaction)
 *    with `FOR UPDATE SKIP LOCKED`, coalesce them into the changed organisations, and queue every saved scenario they
 *    can affect (affected.ts) as (scenario, version) in scenario_repricings (unique: queued once whoever queues it);
 *    the change rows are deleted in the same transaction.
 * 2. Claim queue rows (and their scenarios) `FOR UPDATE SKIP LOCKED`, a batch per transaction: re-price each as its
 *    owner with the same service the tool runs, without metering and without a recent ({ meter: false }), write the
 *    current figures onto the scenario, queue the owner's notification, delete the queue rows, commit.
 * A process killed mid-pass loses nothing: its transaction rolls back and the rows are claimed by the next pass.
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { rawQuery, type Db } from '../../lib/db.ts';
import { logger } from '../../lib/logger.ts';
import { type PollLoop, pollLoop } from '../../lib/poll-loop.ts';
import type { Caller } from '../../lib/caller.ts';
import { callersOfUsers } from '../auth/index.ts';
import type { CatalogueSnapshot } from '../catalogue/index.ts';
import type { DealRequest } from '../deal/index.ts';
import { runMatrixCalculator } from '../matrix/index.ts';
import { DEFAULT_SCENARIO_CHANGE_THRESHOLD, queueNotification } from '../notifications/index.ts';
import { calculate } from '../pricing/index.ts';
import { readCurrent, readSummary, type CurrentCheapest, type ScenarioSummary } from '../scenarios/index.ts';
import type { AppDeps, ServiceContext } from '../../lib/service-context.ts';
import { affectedScenarios, changeScope, type Candidate, type ChangeRow } from './affected.ts';
import { noticeText, repricingOutcome } from './outcome.ts';

/** The tools whose saved scenarios are re-priced: those that price (an Approval Matrix run shows no figure). */
const REPRICED_TOOLS = ['calculator', 'matrix_calculator'] as const;

export interface RepricingDeps extends AppDeps {
  /** Scenarios re-priced per transaction (default: 10 on PostgreSQL, 1 on PGlite). */
  batchSize?: number;
  /** Scenarios re-priced per pass at most (default SCENARIO_REPRICE_PER_PASS; the rest wait for the next pass). */
  perPass?: number;
  /** Change-log rows claimed per transaction. */
  changeBatch?: number;
  isStopping?: () => boolean;
}

export interface RepricingSummary {
  /** Change-log rows drained. */
  changes: number;
  /** Saved scenarios looked at for those changes ... */
  examined: number;
  /** ... and queued because the changes can affect them. */
  queued: number;
  /** Scenarios re-priced (figures written). */
  repriced: number;
  notified: number;
  /** The pass stopped at its bound (`perPass`) with scenarios still queued: the next pass starts at once. */
  more: boolean;
}

const emptySummary = (): RepricingSummary => ({
  changes: 0,
  examined: 0,
  queued: 0,
  repriced: 0,
  notified: 0,
  more: false,
});

type Counts = Omit<RepricingSummary, 'more'>;

function add(total: RepricingSummary, part: Partial<Counts>): void {
  for (const key of Object.keys(part) as (keyof Counts)[]) total[key] += part[key] ?? 0;
}

/** Step 1: drain one claim of the change log into the queue. */
async function queueAffected(
  prisma: PrismaClient,
  snapshot: CatalogueSnapshot,
  limit: number,
): Promise<Partial<Counts>> {
  return prisma.$transaction(
    async (tx) => {
      // Only changes the snapshot already holds (stamped with a version it has reached); a newer one waits for a
      // pass that has loaded it. A row without a stamp (a constraint fired early) counts as the current version.
      const changes = await rawQuery<ChangeRow>(
        tx,
        `DELETE FROM catalogue_changes WHERE id IN (
           SELECT id FROM catalogue_changes
            WHERE coalesce(version, (SELECT version FROM catalogue_state WHERE id = 1)) <= $1::bigint
            ORDER BY id LIMIT $2::int FOR UPDATE SKIP LOCKED)
         RETURNING organisation_id, kind, min_term, max_term`,
        snapshot.version.toString(),
        limit,
      );
      if (changes.length === 0) return { changes: 0 };
      const scope = changeScope(changes);
      const rows = await rawQuery<{
        id: number;
        asset: string | null;
        term: string | null;
        saved_org: string | null;
        current_org: string | null;
      }>(
        tx,
        `SELECT id, request->>'asset_value' AS asset, request->>'term' AS term,
                summary->'cheapest'->'financier'->>'id' AS saved_org,
                current->'cheapest'->>'organisation_id' AS current_org
           FROM scenarios WHERE kind = 'saved' AND tool = ANY($1::text[])`,
        [...REPRICED_TOOLS],
      );
      const int = (v: string | null): number | null => (v !== null && /^[0-9]{1,9}$/.test(v) ? Number(v) : null);
      const candidates: Candidate[] = rows.map((r) => ({
        id: r.id,
        assetId: int(r.asset),
        term: int(r.term),
        savedOrganisationId: int(r.saved_org),
        currentOrganisationId: int(r.current_org),
      }));
      const ids = affectedScenarios(snapshot, scope, candidates);
      if (ids.length) {
        await rawQuery(
          tx,
          `INSERT INTO scenario_repricings (scenario_id, version)
           SELECT unnest($1::int[]), $2::bigint ON CONFLICT DO NOTHING`,
          ids,
          snapshot.version.toString(),
        );
      }
      return { changes: changes.length, examined: candidates.length, queued: ids.length };
    },
    { timeout: 60_000 },
  );
}

interface Claimed {
  scenario_id: number;
  version: bigint;
  user_id: number;
  tool: string;
  name: string | null;
  request: unknown;
  summary: unknown;
  current: unknown;
  repriced_version: bigint | null;
}

/** The cheapest row now and whether the saved one still stands, as the owner would run the deal now. */
async function runAsOwner(
  deps: AppDeps,
  caller: Caller,
  snapshot: CatalogueSnapshot,
  scenario: Claimed,
  saved: ScenarioSummary['cheapest'],
): Promise<{ cheapest: CurrentCheapest | null; savedStands: boolean | null; version: bigint }> {
  const ctx: ServiceContext = {
    ...deps,
    auth: { kind: 'caller', caller, catalogueVersion: snapshot.version },
    client: 'web',
    cache: new Map(),
    clientAddress: null,
  };
  const request = scenario.request as DealRequest;
  const stands = (rows: readonly { rate_bracket_id: number; repayment_min: string | null }[]) =>
    saved ? rows.some((r) => r.rate_bracket_id === saved.rate_bracket_id && r.repayment_min !== null) : null;
  try {
    if (scenario.tool === 'calculator') {
      const run = await calculate(ctx, caller, request, { meter: false });
      const c = run.cheapest;
      return {
        cheapest: c
          ? {
              organisation_id: c.organisation_id,
              organisation_name: c.organisation_name,
              approval_id: null,
              rate_bracket_id: c.rate_bracket_id,
              rate: c.e_min,
              repayment: c.repayment_min,
            }
          : null,
        savedStands: stands(run.results),
        version: run.catalogue_version,
      };
    }
    const run = await runMatrixCalculator(ctx, caller, request, { meter: false });
    const c = run.cheapest;
    return {
      cheapest:
        c && c.e_min !== null && c.repayment_min !== null
          ? {
              organisation_id: c.organisation_id,
              organisation_name: c.organisation_name,
              approval_id: 'approval_id' in c && typeof c.approval_id === 'number' ? c.approval_id : null,
              rate_bracket_id: c.rate_bracket_id,
              rate: c.e_min,
              repayment: c.repayment_min,
            }
          : null,
      savedStands: stands([...run.results, ...(run.priced ?? [])]),
      version: run.catalogue_version,
    };
  } catch (error) {
    // The owner's run is refused now (plan, entitlement, a deleted asset): nothing is offered to them.
    logger.info('scenarios.reprice_refused', { scenario_id: scenario.scenario_id, message: (error as Error).message });
    return { cheapest: null, savedStands: saved ? false : null, version: snapshot.version };
  }
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Step 2: one claimed batch, re-priced and written in one transaction. */
async function repriceBatch(
  deps: RepricingDeps,
  snapshot: CatalogueSnapshot,
  limit: number,
): Promise<{ claimed: number; repriced: number; notified: number }> {
  return deps.prisma.$transaction(
    async (tx) => {
      const claimed = await rawQuery<Claimed>(
        tx,
        `SELECT q.scenario_id, q.version, s.user_id, s.tool, s.name, s.request, s.summary, s.current, s.repriced_version
           FROM scenario_repricings q JOIN scenarios s ON s.id = q.scenario_id
          WHERE q.version <= $1::bigint
          ORDER BY q.scenario_id, q.version
          LIMIT $2::int
          FOR UPDATE OF q SKIP LOCKED FOR NO KEY UPDATE OF s SKIP LOCKED`,
        snapshot.version.toString(),
        limit,
      );
      if (claimed.length === 0) return { claimed: 0, repriced: 0, notified: 0 };
      const byScenario = new Map<number, Claimed>();
      for (const row of claimed) byScenario.set(row.scenario_id, row);
      const userIds = [...new Set(claimed.map((r) => r.user_id))];
      const [callers, preferences] = await Promise.all([
        callersOfUsers(tx, userIds),
        tx.notificationPreference.findMany({
          where: { user_id: { in: userIds } },
          select: { user_id: true, scenario_change_threshold: true },
        }),
      ]);
      const thresholds = new Map(preferences.map((p) => [p.user_id, p.scenario_change_threshold.toFixed(2)]));
      const now = deps.clock.now();
      const writes: { id: number; current: unknown; version: string }[] = [];
      let notified = 0;
      for (const scenario of byScenario.values()) {
        // Each re-pricing is a whole engine run on the request thread: let waiting requests in between two.
        await yieldToRequests();
        const caller = callers.get(scenario.user_id);
        // Already re-priced at this snapshot (a queue row of an older version), or the owner is deactivated.
        if (!caller || (scenario.repriced_version !== null && scenario.repriced_version >= snapshot.version)) continue;
        const saved = readSummary(scenario.summary)?.cheapest ?? null;
        const run = await runAsOwner(deps, caller, snapshot, scenario, saved);
        const { current, notice } = repricingOutcome({
          saved,
          previous: readCurrent(scenario.current),
          cheapest: run.cheapest,
          savedStands: run.savedStands,
          threshold: thresholds.get(scenario.user_id) ?? DEFAULT_SCENARIO_CHANGE_THRESHOLD,
        });
        writes.push({ id: scenario.scenario_id, current, version: run.version.toString() });
        if (notice) {
          notified += await queueNotification(tx, {
            category: 'rate_card',
            userIds: [scenario.user_id],
            ...noticeText(scenario.name ?? '', notice),
            data: {
              kind: 'saved_scenario',
              scenario_id: scenario.scenario_id,
              catalogue_version: Number(run.version),
              old_repayment: notice.old_repayment,
              new_repayment: notice.new_repayment,
            },
            at: now,
          });
        }
      }
      if (writes.length) await writeCurrent(tx, writes, now);
      await rawQuery(
        tx,
        `DELETE FROM scenario_repricings q USING unnest($1::int[], $2::text[]) AS c(sid, v)
          WHERE q.scenario_id = c.sid AND q.version = c.v::bigint`,
        claimed.map((r) => r.scenario_id),
        claimed.map((r) => r.version.toString()),
      );
      return { claimed: claimed.length, repriced: writes.length, notified };
    },
    { timeout: 60_000 },
  );
}

/** One statement for the batch; `updated_at` stays (it is the user's last change, not the system's). */
async function writeCurrent(db: Db, writes: { id: number; current: unknown; version: string }[], now: Date) {
  await rawQuery(
    db,
    `UPDATE scenarios s SET current = x.current, repriced_at = $2::timestamp, repriced_version = x.version::bigint
       FROM jsonb_to_recordset($1::jsonb) AS x(id int, current jsonb, version text)
      WHERE s.id = x.id`,
    JSON.stringify(writes),
    now,
  );
}

/**
 * One pass: drains the change log into the queue, then re-prices up to `perPass` queued scenarios. The worker calls it
 * on every poll; tests call it to drive re-pricing without waiting. Throws only what the database throws.
 */
export async function repricePending(deps: RepricingDeps): Promise<RepricingSummary> {
  const total = emptySummary();
  const changeBatch = deps.changeBatch ?? 1000;
  // A transaction stays open across its engine runs and the requests served between them (the yields), within the
  // transaction bound (src/lib/db.ts): a short batch. PGlite is one connection on this thread, so an open transaction
  // holds every request's statement until it commits: there a transaction re-prices one scenario.
  const batchSize = deps.batchSize ?? (deps.config.databaseUrl ? 10 : 1);
  const snapshot = await deps.services.catalogue.get();
  for (;;) {
    const part = await queueAffected(deps.prisma, snapshot, changeBatch);
    add(total, part);
    if ((part.changes ?? 0) < changeBatch) break;
  }
  let budget = deps.perPass ?? deps.config.scenarioRepricePerPass;
  while (budget > 0 && !deps.isStopping?.()) {
    const done = await repriceBatch(deps, snapshot, Math.min(batchSize, budget));
    if (done.claimed === 0) break;
    add(total, { repriced: done.repriced, notified: done.notified });
    budget -= done.claimed;
    if (budget <= 0) total.more = true;
  }
  return total;
}

export interface RepricingWorker extends PollLoop {
  /** One pass now (what the worker does on each poll). */
  runOnce(): Promise<RepricingSummary>;
}

/**
 * Polls every `pollIntervalMs` (default SCENARIO_REPRICE_INTERVAL_MS; src/lib/poll-loop.ts: a failing pass is logged
 * and retried, never fatal).
 */
export function createRepricingWorker(
  deps: RepricingDeps & { pollIntervalMs?: number; onPass?: (outcome: RepricingSummary | { error: unknown }) => void },
): RepricingWorker {
  const loop = pollLoop({
    pollIntervalMs: deps.pollIntervalMs ?? deps.config.scenarioRepriceIntervalMs,
    pass: (isStopping) => repricePending({ ...deps, isStopping }),
    events: {
      failed: 'scenarios.reprice_failed',
      recovered: 'scenarios.reprice_recovered',
      done: 'scenarios.repriced',
    },
    didWork: (summary) => Boolean(summary.changes || summary.repriced),
    more: (summary) => summary.more,
    onPass: deps.onPass,
  });
  return { ...loop, runOnce: () => repricePending(deps) };
}
