import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { FinancierProfileRef, OrganisationRef } from './organisation.types.ts';
import { organisationView } from './service.ts';

const OrganisationViewRef = builder.unionType('OrganisationView', {
  description: "The caller's own Organisation in full, or a financier in the caller's results as its public profile",
  types: [OrganisationRef, FinancierProfileRef],
  resolveType: (value) => ('created_at' in value ? OrganisationRef : FinancierProfileRef),
});

builder.queryField('organisationView', (t) =>
  t.field({
    type: OrganisationViewRef,
    description:
      'GET /organisations/{id}: your own organisation in full; a financier that appears in your results (in your book, with a rate bracket or approval in the catalogue) as its public profile; any other id NotFoundError, exactly like a missing one',
    authScopes: { signedIn: true },
    args: { id: t.arg.int({ required: true, description: 'An organisation id' }) },
    errors: { types: [NotFoundError], dataField: { description: 'The organisation as the caller may see it' } },
    resolve: (_root, args, ctx) => organisationView(ctx, callerOf(ctx), args.id),
  }),
);
