/**
 * A write PostgreSQL ends to break a deadlock is answered like an outage: 503 with Retry-After (REST `{error}`,
 * GraphQL `extensions.code: "WRITE_CONFLICT"`), never 500, and nothing it did is kept. The service's own lock order
 * leaves no cycle (docs/operations.md, "Write conflicts"), so the test closes one from outside: a transaction holds a
 * rate bracket the request is about to KEY SHARE, then asks for the approval the request has locked. Its own
 * deadlock_timeout is long, so the request's session finds the cycle and is the one ended. PostgreSQL only: PGlite has
 * one connection, where nothing can wait.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  WRITE_CONFLICT_CODE,
  WRITE_CONFLICT_MESSAGE,
  WRITE_CONFLICT_RETRY_AFTER_SECONDS,
} from '../../src/lib/database-errors.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { LOCK_POLL, lockWaiters } from '../../testkit/lock-waits.ts';

const PG = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG)('a request ended by a deadlock answers 503 with Retry-After, and writes nothing', () => {
  let t: TestApp;
  let financier: string;
  let approvalId: number;
  let bracketId: number;

  beforeAll(async () => {
    t = await startTestApp();
    financier = (await t.login('financier.admin@demo.test')).access;
    const prisma = t.database.prisma;
    approvalId = (await prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).id;
    bracketId = (await prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } }))
      .id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Runs `request` while a transaction closes a lock cycle with it; answers the request's reply. */
  async function deadlocked<R>(request: () => Promise<R>): Promise<R> {
    let holding!: () => void;
    const held = new Promise<void>((r) => {
      holding = r;
    });
    const holder = t.database.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL deadlock_timeout = '20s'");
        await tx.$queryRawUnsafe('SELECT id FROM rate_brackets WHERE id = $1 FOR UPDATE', bracketId);
        holding();
        // The request has locked the approval and waits for the rate bracket.
        await vi.waitUntil(async () => (await lockWaiters(t.database.prisma)) > 0, LOCK_POLL);
        await tx.$queryRawUnsafe('SELECT id FROM approvals WHERE id = $1 FOR UPDATE', approvalId);
      },
      { timeout: 30_000 },
    );
    await held;
    const reply = request();
    await holder;
    return reply;
  }

  const body = (name: string) => ({ name, doc_level: 'full_doc', rate_bracket_ids: [bracketId] });

  it('REST PUT /approvals/{id}: 503, Retry-After 1, the write-conflict sentence; the approval unchanged', async () => {
    const before = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: approvalId } });
    const res = await deadlocked(() =>
      t.rest('PUT', `/api/v1/approvals/${approvalId}`, { token: financier, body: body('Deadlocked over REST') }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(WRITE_CONFLICT_RETRY_AFTER_SECONDS));
    expect(res.body).toEqual({ error: WRITE_CONFLICT_MESSAGE });
    expect(await t.database.prisma.approval.findUniqueOrThrow({ where: { id: approvalId } })).toEqual(before);
    // The retry the answer asks for goes through.
    const retried = await t.rest('PUT', `/api/v1/approvals/${approvalId}`, {
      token: financier,
      body: body('Deadlocked over REST'),
    });
    expect(retried.status).toBe(200);
  });

  it('GraphQL updateApproval: HTTP 503, Retry-After 1, extensions.code WRITE_CONFLICT; the approval unchanged', async () => {
    const before = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: approvalId } });
    const res = await deadlocked(async () => {
      const answer = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${financier}` },
        body: JSON.stringify({
          query:
            'mutation($id: Int!, $input: ApprovalInput!) { updateApproval(id: $id, input: $input) { __typename } }',
          variables: { id: approvalId, input: body('Deadlocked over GraphQL') },
        }),
      });
      return { status: answer.status, headers: answer.headers, body: (await answer.json()) as any };
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(WRITE_CONFLICT_RETRY_AFTER_SECONDS));
    expect(res.body.errors[0]).toMatchObject({
      message: WRITE_CONFLICT_MESSAGE,
      extensions: { code: WRITE_CONFLICT_CODE },
    });
    expect(await t.database.prisma.approval.findUniqueOrThrow({ where: { id: approvalId } })).toEqual(before);
  });
});
