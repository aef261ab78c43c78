import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { SeatsRef } from './users.types.ts';
import { seatsOf } from './service.ts';
import { UserRef } from './users.types.ts';

builder.queryField('me', (t) =>
  t.prismaField({
    type: UserRef,
    description: 'The signed-in user',
    authScopes: { signedIn: true },
    errors: { directResult: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id: callerOf(ctx).userId } }),
  }),
);

builder.queryField('seats', (t) =>
  t.field({
    type: SeatsRef,
    nullable: true,
    description: "Seats of the caller's organisation (null without one)",
    authScopes: { signedIn: true },
    // A refusal is a typed result (UnauthenticatedError ...), as on every other root field, never a masked crash.
    errors: { directResult: true },
    resolve: (_root, _args, ctx) => {
      const organisationId = callerOf(ctx).organisation?.id;
      return organisationId ? seatsOf(ctx.prisma, organisationId) : null;
    },
  }),
);
