/**
 * STAND-IN, NOT FOR MERGE: the GraphQL type of the rate-cards module's version conflict, which the rate-cards branch
 * registers in its own rate-card.types.ts (same name and fields). At merge, delete this file and its import in
 * ./graphql.ts, and import the conflict error from '../index.ts' as now.
 */
import { builder } from '../../../graphql/builder.ts';
import { ErrorInterface } from '../../../graphql/errors.ts';
import { RateCardVersionConflictError } from '../index.ts';

builder.objectType(RateCardVersionConflictError, {
  name: 'RateCardVersionConflictError',
  description: 'The card changed since the caller read it (expectedVersion is stale); nothing was written',
  interfaces: [ErrorInterface],
  fields: (t) => ({ current_version: t.exposeInt('currentVersion') }),
});
