/**
 * The asset tree never holds a cycle: property tests (fast-check). The pure rules (asset-tree.ts) against a naive
 * model, then random re-parent sequences through the real service on a real database: whatever the sequence, every
 * move that would put an asset under itself or a descendant is refused (400 on parent_id), every other move is made,
 * and the stored tree never loops.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/lib/errors.ts';
import {
  ancestorIds,
  hasCycle,
  judgeParent,
  liveAssetIds,
  MAX_ASSET_DEPTH,
  type TreeNode,
} from '../../src/modules/catalogue/asset-tree.ts';
import { updateAsset } from '../../src/modules/catalogue/assets.service.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { sized } from '../../testkit/sizes.ts';

/** A random forest: node i's parent is a node before it (so it is a tree), or none. */
const forest = (max: number) =>
  fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: max }).map((spec) =>
    spec.map(
      ([p, top, deleted], i): TreeNode => ({
        id: i + 1,
        parent_id: i === 0 || top ? null : (p % i) + 1,
        is_deleted: deleted && p % 4 === 0,
      }),
    ),
  );

/** The naive model: the line above `id`, parent first. */
function lineOf(nodes: readonly TreeNode[], id: number): number[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out: number[] = [];
  for (let p = byId.get(id)?.parent_id ?? null; p !== null; p = byId.get(p)?.parent_id ?? null) out.push(p);
  return out;
}

describe('Asset tree rules (pure): cycles, liveness, ancestors', () => {
  it('judgeParent refuses exactly the asset itself and its descendants as parents', () => {
    fc.assert(
      fc.property(forest(12), fc.nat(), fc.nat(), (nodes, a, p) => {
        const asset = (a % nodes.length) + 1;
        const parent = (p % nodes.length) + 1;
        const rows = new Map(nodes.map((n) => [n.id, n]));
        const judged = judgeParent(rows, asset, parent, 1);
        const descendant = parent === asset || lineOf(nodes, parent).includes(asset);
        expect('kind' in judged && judged.kind === 'cycle').toBe(descendant);
      }),
    );
  });

  it('liveAssetIds: not deleted and no deleted ancestor', () => {
    fc.assert(
      fc.property(forest(15), (nodes) => {
        const byId = new Map(nodes.map((n) => [n.id, n]));
        const live = liveAssetIds(nodes);
        for (const n of nodes) {
          const expected = !n.is_deleted && lineOf(nodes, n.id).every((id) => !byId.get(id)!.is_deleted);
          expect(live.has(n.id)).toBe(expected);
        }
      }),
    );
  });

  it('ancestorIds is the line root first, and ends even on a corrupt loop', () => {
    fc.assert(
      fc.property(forest(15), (nodes) => {
        const parentOf = new Map(nodes.map((n) => [n.id, n.parent_id]));
        for (const n of nodes) expect(ancestorIds(parentOf, n.id, 100)).toEqual(lineOf(nodes, n.id).reverse());
      }),
    );
    const loop = new Map<number, number | null>([
      [1, 2],
      [2, 3],
      [3, 1],
    ]);
    expect(ancestorIds(loop, 1)).toEqual([2, 3].reverse());
    expect(
      judgeParent(new Map([...loop].map(([id, p]) => [id, { id, parent_id: p, is_deleted: false }])), 9, 1),
    ).toEqual({ kind: 'cycle' });
    expect(liveAssetIds([...loop].map(([id, p]) => ({ id, parent_id: p, is_deleted: false }))).size).toBe(3);
  });

  it('judgeParent bounds the depth: parent line plus the moved subtree at most MAX_ASSET_DEPTH', () => {
    const chain: TreeNode[] = Array.from({ length: MAX_ASSET_DEPTH }, (_, i) => ({
      id: i + 1,
      parent_id: i === 0 ? null : i,
      is_deleted: false,
    }));
    const rows = new Map(chain.map((n) => [n.id, n]));
    expect(judgeParent(rows, 100, MAX_ASSET_DEPTH - 1, 1)).toHaveProperty('line');
    expect(judgeParent(rows, 100, MAX_ASSET_DEPTH, 1)).toEqual({ kind: 'too_deep' });
    expect(judgeParent(rows, 100, MAX_ASSET_DEPTH - 2, 3)).toEqual({ kind: 'too_deep' });
  });
});

describe('Random re-parent sequences on the database never produce a cycle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seed: 'none' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('each move is made unless it would close a loop, which is refused on parent_id', async () => {
    const SIZE = 7;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(SIZE - 1), fc.option(fc.nat(SIZE - 1), { nil: null })), {
          minLength: 1,
          maxLength: 14,
        }),
        async (moves) => {
          const prisma = t.database.prisma;
          const made = await prisma.asset.createManyAndReturn({
            data: Array.from({ length: SIZE }, (_, i) => ({ name: `Node ${i}`, is_asset: false })),
          });
          const ids = made.map((m) => m.id);
          const model = new Map<number, number | null>(ids.map((id) => [id, null]));
          for (const [a, p] of moves) {
            const asset = ids[a];
            const parent = p === null ? null : ids[p];
            const nodes = [...model].map(([id, parent_id]) => ({ id, parent_id, is_deleted: false }));
            const loops = parent !== null && (parent === asset || lineOf(nodes, parent).includes(asset));
            try {
              await updateAsset({ prisma }, asset, { parent_id: parent });
              expect(loops).toBe(false);
              model.set(asset, parent);
            } catch (error) {
              expect(error).toBeInstanceOf(ValidationError);
              expect((error as ValidationError).fieldErrors.map((e) => e.field)).toEqual(['parent_id']);
              expect(loops).toBe(true);
            }
          }
          const stored = await prisma.asset.findMany({ where: { id: { in: ids } } });
          expect(hasCycle(stored)).toBe(false);
          expect(new Map(stored.map((s) => [s.id, s.parent_id]))).toEqual(model);
        },
      ),
      { numRuns: sized(25, 5) },
    );
  });
});
