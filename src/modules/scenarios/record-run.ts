/**
 * The one statement a metered run makes: consume its allowances and record it as a recent scenario (record_run in
 * prisma/migrations/*_record_run*). Saving a recent without metering is the same statement with no metrics.
 * One user's saves for one tool run one at a time (an advisory lock inside it), so concurrent runs neither deadlock
 * nor leave more than RECENT_SCENARIO_LIMIT recents (docs/scenarios.md).
 */
import { rawQuery, type Db } from '../../lib/db.ts';
import type { ScenarioTool } from '../../lib/vocabulary.ts';

/** Recent scenarios kept per user per tool; older ones are deleted by the write that pushes them out. */
export const RECENT_SCENARIO_LIMIT = 20;

export interface RunRecord {
  userId: number;
  /** Calendar day the allowances count in (YYYY-MM-DD); unused without metrics. */
  day: string;
  /** Allowances to consume, sorted (rows are locked in this order), with their limits (null = unlimited). */
  metrics: string[];
  limits: (number | null)[];
  /** Which tool produced it. Recents and saved limits are counted per tool. */
  tool: ScenarioTool;
  /** The request as the tool received it (any JSON value). */
  request: unknown;
  /** What the tool answered, condensed for a list (any JSON value, or null). */
  summary?: unknown;
}

export type RunOutcome = { ok: true; scenarioId: number } | { ok: false; metric: string; used: number; limit: number };

export async function recordRun(db: Db, run: RunRecord): Promise<RunOutcome> {
  // Straight to the driver outside a transaction: this statement is on every metered run's path (src/lib/db.ts).
  const rows = await rawQuery<{
    ok: boolean;
    metric: string | null;
    used: number | null;
    limit: number | null;
    scenario_id: number | null;
  }>(
    db,
    // Columns named, not `*`: a prepared statement keeps its result type (src/lib/db.ts).
    'SELECT ok, metric, used, "limit", scenario_id FROM record_run($1::int, $2::text, $3::text[], $4::int[], $5::text, $6::jsonb, $7::jsonb, $8::int)',
    run.userId,
    run.day,
    run.metrics,
    run.limits,
    run.tool,
    JSON.stringify(run.request ?? null),
    run.summary === undefined || run.summary === null ? null : JSON.stringify(run.summary),
    RECENT_SCENARIO_LIMIT,
  );
  const row = rows[0];
  return row.ok
    ? { ok: true, scenarioId: Number(row.scenario_id) }
    : { ok: false, metric: row.metric!, used: row.used!, limit: row.limit! };
}
