/** Which approvals link to a financier's brackets: the diff's and the import preview's "still linked" warning. */
import type { Db } from '../../lib/db.ts';

/** Bracket id -> names of the approvals linked to it, for the "still linked" warning. */
export async function approvalLinksOf(db: Db, organisationId: number): Promise<Map<number, string[]>> {
  const rows = await db.approvalRateBracket.findMany({
    where: { rate_bracket: { organisation_id: organisationId } },
    select: { rate_bracket_id: true, approval: { select: { name: true } } },
  });
  const links = new Map<number, string[]>();
  for (const row of rows) {
    const list = links.get(row.rate_bracket_id);
    if (list) list.push(row.approval.name);
    else links.set(row.rate_bracket_id, [row.approval.name]);
  }
  return links;
}
