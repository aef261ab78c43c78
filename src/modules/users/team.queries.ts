/** Team reads: organisation administrators, their own organisation only (docs/team.md). */
import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import { InvitationRef } from './team.types.ts';
import { UserRef } from './users.types.ts';

/** The caller's organisation id; team reads need an organisation (scope `admin` already required an admin). */
function ownOrganisationId(ctx: Parameters<typeof callerOf>[0]): number {
  const id = callerOf(ctx).organisation?.id;
  if (id === undefined) throw new ForbiddenError(say('forbidden_manage_users', ctx.client));
  return id;
}

builder.queryField('organisationUsers', (t) =>
  t.prismaConnection({
    type: UserRef,
    cursor: 'id',
    description:
      "The users of the caller's organisation, deactivated ones included, oldest first, with their groups. Administrators only",
    authScopes: { $all: { signedIn: true, admin: true } },
    errors: { directResult: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.user.findMany({
        ...query,
        where: { organisation_id: ownOrganisationId(ctx) },
        orderBy: { id: 'asc' },
      }),
  }),
);

builder.queryField('organisationInvitations', (t) =>
  t.prismaConnection({
    type: InvitationRef,
    cursor: 'id',
    description:
      "The caller's organisation's pending invitations (not accepted; expired ones included until withdrawn), oldest first. Administrators only",
    authScopes: { $all: { signedIn: true, admin: true } },
    errors: { directResult: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.invitation.findMany({
        ...query,
        where: { organisation_id: ownOrganisationId(ctx), accepted_at: null },
        orderBy: { id: 'asc' },
      }),
  }),
);
