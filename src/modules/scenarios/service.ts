/**
 * Calculator scenarios: every run leaves a recent scenario (the newest RECENT_SCENARIO_LIMIT per user per tool are
 * kept, trimmed on write); promote turns a recent one into a saved one (kept until deleted), up to the plan's
 * saved_scenario_limit per user per tool.
 *
 * Concurrency: saving a recent and trimming the old ones is one SQL statement (record_run), one at a time per user and
 * tool. Promote counts and updates under a lock on the caller's user row, so of many concurrent promotes exactly as
 * many win as there are free slots, across any number of processes; the update is conditional on the scenario still
 * being recent, so two promotes of the same scenario cannot both win.
 */
import type { Scenario, ScenarioKind } from '../../generated/prisma/client.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { termsOf } from '../../lib/caller.ts';
import { PLAN_TERMS } from '../../lib/plans.ts';
import { SCENARIO_TOOLS } from '../../lib/vocabulary.ts';
import { RECENT_SCENARIO_LIMIT } from './record-run.ts';
import { NameRequiredError, OverLimitError, ScenarioNotFoundError } from './errors.ts';
/** Longest scenario name accepted (longer answers a ValidationError naming `name`). */
const SCENARIO_NAME_MAX_LENGTH = 200;

/**
 * The most scenarios `scenarios` lists, newest first: every tool's recents and saved ones at the largest plan's
 * limit. Only an operator's override of saved_scenario_limit (catalogue file) keeps more; those are left off.
 */
export const SCENARIOS_LISTED_MAX =
  SCENARIO_TOOLS.length *
  (RECENT_SCENARIO_LIMIT + Math.max(...Object.values(PLAN_TERMS).map((terms) => terms.saved_scenario_limit)));

type ScenarioCtx = Pick<ServiceContext, 'prisma' | 'client'>;

function requireName(name: string | null | undefined): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '') throw new NameRequiredError();
  if (trimmed.length > SCENARIO_NAME_MAX_LENGTH) {
    throw ValidationError.of('name', `Ensure this field has no more than ${SCENARIO_NAME_MAX_LENGTH} characters.`);
  }
  return trimmed;
}

/**
 * recent -> saved (spec States: Scenario). Refusals, in order: no usable name (NameRequiredError); not a recent
 * scenario of the caller's (ScenarioNotFoundError: another user's, an already-saved one and a missing id answer
 * alike); the tool already keeps saved_scenario_limit saved scenarios (OverLimitError, client-worded).
 */
export async function promoteScenario(
  ctx: ScenarioCtx,
  caller: Caller,
  id: number,
  name: string | null | undefined,
): Promise<Scenario> {
  const trimmed = requireName(name);
  const limit = termsOf(caller).saved_scenario_limit;
  return ctx.prisma.$transaction(async (tx) => {
    // Serialises this user's promotes. NO KEY UPDATE rather than UPDATE: it still excludes every other promote,
    // but not the FOR KEY SHARE lock that inserting a scenario (a foreign key to users) takes, so calculator runs
    // saving recents never wait on, or deadlock with, a promote.
    await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1::int FOR NO KEY UPDATE', caller.userId);
    const target = await tx.scenario.findFirst({
      where: { id, user_id: caller.userId, kind: 'recent' },
      select: { tool: true },
    });
    if (!target) throw new ScenarioNotFoundError();
    const saved = await tx.scenario.count({ where: { user_id: caller.userId, tool: target.tool, kind: 'saved' } });
    if (saved >= limit) throw new OverLimitError(say('scenario_over_limit', ctx.client, { limit }), limit);
    // Conditional on still being recent: a concurrent trim may have deleted it (the lost race answers not_found).
    const updated = await tx.scenario.updateMany({
      where: { id, user_id: caller.userId, kind: 'recent' },
      data: { kind: 'saved', name: trimmed },
    });
    if (updated.count !== 1) throw new ScenarioNotFoundError();
    return tx.scenario.findUniqueOrThrow({ where: { id } });
  });
}

export interface ScenarioFilter {
  kind?: ScenarioKind | null;
  tool?: string | null;
}

/** The caller's scenarios, newest first; optionally of one kind and one tool. */
export async function listScenarios(
  ctx: ScenarioCtx,
  caller: Caller,
  filter: ScenarioFilter = {},
): Promise<Scenario[]> {
  return ctx.prisma.scenario.findMany({
    where: {
      user_id: caller.userId,
      ...(filter.kind ? { kind: filter.kind } : {}),
      ...(filter.tool ? { tool: filter.tool } : {}),
    },
    orderBy: { id: 'desc' },
    take: SCENARIOS_LISTED_MAX,
  });
}

/** Renames one of the caller's saved scenarios (recents have no name to change). */
export async function renameScenario(
  ctx: ScenarioCtx,
  caller: Caller,
  id: number,
  name: string | null | undefined,
): Promise<Scenario> {
  const trimmed = requireName(name);
  const updated = await ctx.prisma.scenario.updateMany({
    where: { id, user_id: caller.userId, kind: 'saved' },
    data: { name: trimmed },
  });
  if (updated.count !== 1) throw new ScenarioNotFoundError();
  const scenario = await ctx.prisma.scenario.findFirst({ where: { id, user_id: caller.userId } });
  if (!scenario) throw new ScenarioNotFoundError(); // deleted in between
  return scenario;
}

/** Deletes one of the caller's scenarios, recent or saved; answers the deleted id. */
export async function deleteScenario(ctx: ScenarioCtx, caller: Caller, id: number): Promise<{ id: number }> {
  const deleted = await ctx.prisma.scenario.deleteMany({ where: { id, user_id: caller.userId } });
  if (deleted.count !== 1) throw new ScenarioNotFoundError();
  return { id };
}
