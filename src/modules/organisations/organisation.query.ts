import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import { ownsOrganisation } from '../../lib/policy.ts';
import { OrganisationRef } from './organisation.types.ts';

builder.queryField('organisation', (t) =>
  t.prismaField({
    type: OrganisationRef,
    description: "The caller's own organisation; any other id answers NotFoundError, exactly like a missing one",
    authScopes: { signedIn: true },
    args: { id: t.arg.int({ required: true, description: "The caller's organisation id" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (query, _root, args, ctx) => {
      if (!ownsOrganisation(callerOf(ctx), args.id)) throw new NotFoundError(say('not_found_organisation', ctx.client));
      const organisation = await ctx.prisma.organisation.findUnique({ ...query, where: { id: args.id } });
      if (!organisation) throw new NotFoundError(say('not_found_organisation', ctx.client));
      return organisation;
    },
  }),
);
