import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { LastAdminError, SeatLimitReachedError } from './errors.ts';
import { updateUser } from './service.ts';
import { UserRef } from './users.types.ts';

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  fields: (t) => ({
    first_name: t.string(),
    last_name: t.string(),
    organisation_id: t.int({
      description: 'null removes the user from the organisation; moving to another is refused',
    }),
    is_admin: t.boolean(),
    is_active: t.boolean({ description: 'true on a deactivated user takes a seat back' }),
  }),
});

builder.mutationField('updateUser', (t) =>
  t.prismaField({
    type: UserRef,
    authScopes: { write: true },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateUserInput, required: true }) },
    errors: {
      types: [NotFoundError, ForbiddenError, ValidationError, SeatLimitReachedError, LastAdminError],
      directResult: true,
    },
    resolve: (_query, _root, args, ctx) => updateUser(ctx, callerOf(ctx), args.id, args.input),
  }),
);
