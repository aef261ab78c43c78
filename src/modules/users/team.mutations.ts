/**
 * Team changes: organisation administrators, their own organisation only (docs/team.md). deactivateUser,
 * reactivateUser and setAdmin are PUT /users/{id}'s rules (seats, last administrator) under their own names.
 */
import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { LastAdminError, SeatLimitReachedError } from './errors.ts';
import { updateUser } from './service.ts';
import { UserRef } from './users.types.ts';

const ADMIN_WRITE = { $all: { write: true, admin: true } } as const;
const USER_EDIT_ERRORS = [NotFoundError, ForbiddenError, ValidationError, SeatLimitReachedError, LastAdminError];

builder.mutationField('deactivateUser', (t) =>
  t.prismaField({
    type: UserRef,
    description: 'Deactivate a user of your organisation: frees their seat and ends their sessions and tokens',
    authScopes: ADMIN_WRITE,
    args: { id: t.arg.int({ required: true, description: "The user's id" }) },
    errors: { types: USER_EDIT_ERRORS, directResult: true },
    resolve: (_query, _root, args, ctx) => updateUser(ctx, callerOf(ctx), args.id, { is_active: false }),
  }),
);

builder.mutationField('reactivateUser', (t) =>
  t.prismaField({
    type: UserRef,
    description: 'Reactivate a user of your organisation: takes a seat (SeatLimitReachedError at the limit)',
    authScopes: ADMIN_WRITE,
    args: { id: t.arg.int({ required: true, description: "The user's id" }) },
    errors: { types: USER_EDIT_ERRORS, directResult: true },
    resolve: (_query, _root, args, ctx) => updateUser(ctx, callerOf(ctx), args.id, { is_active: true }),
  }),
);

builder.mutationField('setAdmin', (t) =>
  t.prismaField({
    type: UserRef,
    description:
      'Grant or take away administrator rights; never leaves the organisation without an active administrator (LastAdminError)',
    authScopes: ADMIN_WRITE,
    args: {
      id: t.arg.int({ required: true, description: "The user's id" }),
      isAdmin: t.arg.boolean({
        required: true,
        description: 'true grants administrator rights, false takes them away',
      }),
    },
    errors: { types: USER_EDIT_ERRORS, directResult: true },
    resolve: (_query, _root, args, ctx) => updateUser(ctx, callerOf(ctx), args.id, { is_admin: args.isAdmin }),
  }),
);
