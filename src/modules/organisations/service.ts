/**
 * GET /organisations/{id} (docs/team.md "Organisation profiles"): the caller's own organisation in full; a financier
 * that appears in the caller's results as its public profile; anything else NotFoundError, exactly like a missing id.
 *
 * "Appears in the caller's results": an organisation of type `f`, within the caller's book (every financier for a
 * broker; a financier sees only itself), with at least one rate bracket or approval in the catalogue the caller's
 * runs read. Decided on the catalogue snapshot the request already reads, so it costs no query of its own.
 */
import type { Organisation } from '../../generated/prisma/client.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { bookOf, ownsOrganisation } from '../../lib/policy.ts';
import { snapshotFor, type CatalogueSnapshot } from '../catalogue/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';

/** Financiers with a catalogue (a rate bracket or an approval), per snapshot (computed once per snapshot). */
const withCatalogue = new WeakMap<CatalogueSnapshot, Set<number>>();
function financiersWithCatalogue(snapshot: CatalogueSnapshot): Set<number> {
  let ids = withCatalogue.get(snapshot);
  if (!ids) {
    ids = new Set([
      ...snapshot.brackets.map((b) => b.organisation_id),
      ...snapshot.approvals.map((a) => a.organisation_id),
    ]);
    withCatalogue.set(snapshot, ids);
  }
  return ids;
}

export async function organisationView(
  ctx: Pick<ServiceContext, 'prisma' | 'services' | 'cache' | 'auth' | 'client'>,
  caller: Caller,
  id: number,
): Promise<Organisation | { id: number; name: string }> {
  if (ownsOrganisation(caller, id)) {
    const own = await ctx.prisma.organisation.findUnique({ where: { id } });
    if (own) return own;
    throw new NotFoundError(say('not_found_organisation', ctx.client));
  }
  const snapshot = await snapshotFor(ctx);
  const organisation = snapshot.organisations.get(id);
  const book = bookOf(caller);
  if (organisation?.type === 'f' && (book === null || book.has(id)) && financiersWithCatalogue(snapshot).has(id))
    return { id: organisation.id, name: organisation.name };
  throw new NotFoundError(say('not_found_organisation', ctx.client));
}
