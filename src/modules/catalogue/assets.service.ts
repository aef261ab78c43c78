/**
 * Asset maintenance (GraphQL createAsset / updateAsset / deleteAsset / restoreAsset, REST PATCH /assets/{id}).
 * No GraphQL here. Every change is one transaction; the catalogue-version trigger on `assets` bumps the version in
 * it, so the next request's search and pricing read the change.
 *
 * Concurrency: a write that attaches an asset to a parent reads the parent's line up to the root, then locks the
 * asset and every row of that line (FOR NO KEY UPDATE, in id order, so two writers never deadlock on each other), and
 * judges the locked rows. While they are locked no parent_id on the line can change, so the judgement holds until
 * commit; two concurrent re-parents that together would close a loop share at least one row, and the second one
 * judges after the first commits. A line that moved between the read and the lock is read and locked again.
 * (docs/asset-tree.md)
 */
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { FieldErrors, NotFoundError, ValidationError } from '../../lib/errors.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { MAX_ASSET_DEPTH, checkAssetText, judgeParent, type ParentProblem, type TreeNode } from './asset-tree.ts';

export interface CreateAssetInput {
  name?: string | null;
  alias?: string | null;
  parent_id?: number | null;
  is_asset?: boolean | null;
}

/**
 * Absent fields stay as they are; `alias: null` clears it; `parent_id: null` moves the asset to the top;
 * `is_deleted` true deletes, false restores (as deleteAsset and restoreAsset, which are this with only that field).
 */
export interface UpdateAssetInput {
  name?: string | null;
  alias?: string | null;
  parent_id?: number | null;
  is_deleted?: boolean | null;
}

type Ctx = Pick<ServiceContext, 'prisma'>;

/** Attempts when the parent's line keeps moving between the read and the lock (it never does twice in practice). */
const LOCK_ATTEMPTS = 5;

class StaleLine extends Error {}

const NOT_FOUND = 'Asset not found.';

function parentMessage(problem: ParentProblem): string {
  switch (problem.kind) {
    case 'unknown':
      return 'No asset has this id.';
    case 'cycle':
      return 'An asset cannot be placed under itself or under one of its own descendants.';
    case 'deleted':
      return 'The parent is deleted, or sits under a deleted category; restore it first.';
    case 'too_deep':
      return `The asset tree may be at most ${MAX_ASSET_DEPTH} levels deep.`;
    case 'stale':
      return 'The asset tree changed while this was checked; try again.';
  }
}

/** Rows of `parentId`'s line as they are now (not locked), parent first; bounded however the rows loop. */
async function readLine(tx: Db, parentId: number): Promise<number[]> {
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 1 FROM assets WHERE id = $1
       UNION ALL
       SELECT a.id, a.parent_id, up.depth + 1 FROM assets a JOIN up ON a.id = up.parent_id WHERE up.depth <= $2
     ) SELECT id FROM up ORDER BY depth`,
    parentId,
    MAX_ASSET_DEPTH + 1,
  );
  return rows.map((r) => r.id);
}

/** Locks the rows (id order: a global order, so lockers queue instead of deadlocking) and answers them as they are now. */
async function lockRows(tx: Db, ids: number[]): Promise<Map<number, TreeNode>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<TreeNode[]>(
    `SELECT id, parent_id, is_deleted FROM assets WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE`,
    unique,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Levels in the subtree of `id` (1 for a leaf), counted down to one more than the tree may hold. */
async function subtreeHeight(tx: Db, id: number): Promise<number> {
  const [row] = await tx.$queryRawUnsafe<{ height: number }[]>(
    `WITH RECURSIVE down(id, depth) AS (
       SELECT id, 1 FROM assets WHERE id = $1
       UNION ALL
       SELECT a.id, down.depth + 1 FROM assets a JOIN down ON a.parent_id = down.id WHERE down.depth <= $2
     ) SELECT max(depth)::int AS height FROM down`,
    id,
    MAX_ASSET_DEPTH,
  );
  return row?.height ?? 1;
}

/**
 * Runs `work` in a transaction with `assetId` (when given) and `parentId`'s line locked and judged. `work` receives
 * the locked asset row. Retries when the line moved between the read and the lock.
 */
async function withLockedLine<T>(
  ctx: Ctx,
  assetId: number | null,
  parentId: number | null | undefined,
  work: (tx: Prisma.TransactionClient, asset: TreeNode | null) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.prisma.$transaction(async (tx) => {
        const line = parentId === null || parentId === undefined ? [] : await readLine(tx, parentId);
        const rows = await lockRows(tx, assetId === null ? line : [assetId, ...line]);
        const asset = assetId === null ? null : (rows.get(assetId) ?? null);
        if (assetId !== null && !asset) throw new NotFoundError(NOT_FOUND);
        // Keeping the current parent is not a move (an asset under a deleted category stays editable).
        if (parentId !== null && parentId !== undefined && asset?.parent_id !== parentId) {
          const height = assetId === null ? 1 : await subtreeHeight(tx, assetId);
          const judged = judgeParent(rows, assetId, parentId, height);
          if ('kind' in judged) {
            if (judged.kind === 'stale') throw new StaleLine();
            throw ValidationError.of('parent_id', parentMessage(judged));
          }
        }
        return work(tx, asset);
      });
    } catch (error) {
      if (error instanceof StaleLine && attempt < LOCK_ATTEMPTS) continue;
      if (error instanceof StaleLine)
        throw ValidationError.of('parent_id', parentMessage({ kind: 'stale', missingId: 0 }));
      throw error;
    }
  }
}

/** An id a caller sent: outside PostgreSQL's integer it names nothing (and would fail the query). */
const isRowId = (id: number) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;

/** `query`: the Prisma selection the caller will read (GraphQL passes the fields asked for). */
type Query = { include?: object; select?: object };

export async function createAsset(ctx: Ctx, input: CreateAssetInput, query: Query = {}) {
  const errors = new FieldErrors();
  const text = checkAssetText(input, errors, false);
  if (input.parent_id !== undefined && input.parent_id !== null && !isRowId(input.parent_id))
    errors.add('parent_id', parentMessage({ kind: 'unknown' }));
  errors.throwIfAny();
  const parentId = input.parent_id ?? null;
  return withLockedLine(ctx, null, parentId, (tx) =>
    tx.asset.create({
      ...(query as object),
      data: { name: text.name!, alias: text.alias ?? null, parent_id: parentId, is_asset: input.is_asset ?? true },
    }),
  );
}

/**
 * Every asset change but creation: rename, re-alias, move, delete, restore, in one transaction with the asset (and a
 * new parent's line) locked. A request left with nothing to write (deleting a deleted asset, say) writes nothing, so
 * it neither touches `updated_at` nor makes every process reload its catalogue snapshot.
 */
export async function updateAsset(ctx: Ctx, id: number, input: UpdateAssetInput, query: Query = {}) {
  if (!isRowId(id)) throw new NotFoundError(NOT_FOUND);
  const errors = new FieldErrors();
  const text = checkAssetText(input, errors, true);
  if (input.parent_id !== undefined && input.parent_id !== null && !isRowId(input.parent_id))
    errors.add('parent_id', parentMessage({ kind: 'unknown' }));
  // The mark is a fact, not a value to clear: null says neither delete nor restore.
  if (input.is_deleted === null) errors.add('is_deleted', 'Must be true or false.');
  errors.throwIfAny();
  return withLockedLine(ctx, id, input.parent_id, (tx, asset) => {
    const data: Prisma.AssetUncheckedUpdateInput = {};
    if (text.name !== undefined) data.name = text.name;
    if (text.alias !== undefined) data.alias = text.alias;
    // Re-sending the current parent is not a move: no judgement beyond the lock was needed, none is made.
    if (input.parent_id !== undefined && input.parent_id !== asset!.parent_id) data.parent_id = input.parent_id;
    // Only the node's own flag: its subtree leaves search and pricing with it (and returns as it was) because
    // readers treat a deleted ancestor as deleting everything beneath it.
    if (typeof input.is_deleted === 'boolean' && input.is_deleted !== asset!.is_deleted)
      data.is_deleted = input.is_deleted;
    return Object.keys(data).length === 0
      ? tx.asset.findUniqueOrThrow({ ...(query as object), where: { id } })
      : tx.asset.update({ ...(query as object), where: { id }, data });
  });
}

/**
 * Marks the asset deleted. Its row, mappings, approvals' references and children stay; the asset and everything
 * beneath it leave search and pricing until it is restored. Deleting a deleted asset changes nothing.
 * PATCH /assets/{id} with `is_deleted: true` is the same change.
 */
export async function deleteAsset(ctx: Ctx, id: number, query: Query = {}) {
  return updateAsset(ctx, id, { is_deleted: true }, query);
}

/** Clears the deleted mark. Its subtree returns as it was (descendants deleted on their own stay deleted). */
export async function restoreAsset(ctx: Ctx, id: number, query: Query = {}) {
  return updateAsset(ctx, id, { is_deleted: false }, query);
}

/**
 * Ancestor ids of many assets in one statement: for each id, its line root first. Bounded by MAX_ASSET_DEPTH
 * levels, and a repeat ends a line, so a corrupt loop in the rows cannot make it run on.
 */
export async function ancestorIdsOf(db: Db, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.$queryRawUnsafe<{ start: number; id: number; depth: number }[]>(
    `WITH RECURSIVE up(start, id, parent_id, depth) AS (
       SELECT id, id, parent_id, 0 FROM assets WHERE id = ANY($1::int[])
       UNION ALL
       SELECT up.start, a.id, a.parent_id, up.depth + 1 FROM assets a JOIN up ON a.id = up.parent_id
        WHERE up.depth < $2
     ) SELECT start, id, depth FROM up WHERE depth > 0 ORDER BY start, depth`,
    [...new Set(ids)],
    MAX_ASSET_DEPTH,
  );
  const seen = new Map<number, Set<number>>();
  const stopped = new Set<number>();
  for (const r of rows) {
    if (stopped.has(r.start)) continue;
    const line = out.get(r.start)!;
    const s = seen.get(r.start) ?? new Set([r.start]);
    seen.set(r.start, s);
    if (s.has(r.id)) {
      stopped.add(r.start);
      continue;
    }
    s.add(r.id);
    line.push(r.id);
  }
  for (const line of out.values()) line.reverse();
  return out;
}
