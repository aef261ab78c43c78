/**
 * Nothing half-written: concurrent PUTs of one approval each replace the fields and the rate-bracket links in one
 * transaction under the approval's row lock, so the result is exactly one request's body, never a mix of two. On
 * PostgreSQL (TEST_DATABASE_URL) the requests really race; on PGlite they are serialised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let financier: string;

beforeAll(async () => {
  t = await startTestApp();
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

describe('concurrent PUTs of one approval: the last write wins whole', () => {
  it('leaves the name and the links of one and the same request', async () => {
    const prisma = t.database.prisma;
    const approval = await prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } });
    const brackets = (await prisma.rateBracket.findMany({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).map(
      (b) => b.id,
    );
    expect(brackets.length).toBeGreaterThanOrEqual(3);
    // Request k links brackets [k, k+1, k+2] (mod the card), so two requests' links are told apart.
    const bodies = Array.from({ length: 12 }, (_, k) => ({
      name: `Writer ${k}`,
      doc_level: 'full_doc',
      rate_bracket_ids: [0, 1, 2].map((j) => brackets[(k + j) % brackets.length]),
    }));
    const replies = await Promise.all(
      bodies.map((body) => t.rest('PUT', `/api/v1/approvals/${approval.id}`, { token: financier, body })),
    );
    expect(replies.map((r) => r.status)).toEqual(bodies.map(() => 200));
    const stored = await prisma.approval.findUniqueOrThrow({
      where: { id: approval.id },
      include: { rate_brackets: { orderBy: { rate_bracket_id: 'asc' } } },
    });
    const winner = bodies.find((b) => b.name === stored.name)!;
    expect(stored.rate_brackets.map((l) => l.rate_bracket_id)).toEqual(
      [...winner.rate_bracket_ids].sort((a, b) => a - b),
    );
  });
});
