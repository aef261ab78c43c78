import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { LastAdminError, SeatLimitReachedError } from './errors.ts';
import { updateUser } from './service.ts';
import { UserRef } from './users.types.ts';

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'Fields of a user to change (PUT /users/{id}); an absent or null name is kept',
  fields: (t) => ({
    first_name: t.string({ description: 'At most 150 characters; trimmed' }),
    last_name: t.string({ description: 'At most 150 characters; trimmed' }),
    organisation_id: t.int({
      description: 'null removes the user from the organisation; moving to another is refused',
    }),
    is_admin: t.boolean({ description: 'Administrator rights; only an administrator may grant them' }),
    is_active: t.boolean({ description: 'true on a deactivated user takes a seat back' }),
  }),
});

builder.mutationField('updateUser', (t) =>
  t.prismaField({
    type: UserRef,
    description:
      "Edit yourself, or (administrators) a user of your organisation; another organisation's user answers NotFoundError",
    authScopes: { write: true },
    args: {
      id: t.arg.int({ required: true, description: "The user's id" }),
      input: t.arg({ type: UpdateUserInput, required: true, description: 'What to change' }),
    },
    errors: {
      types: [NotFoundError, ForbiddenError, ValidationError, SeatLimitReachedError, LastAdminError],
      directResult: true,
    },
    resolve: (_query, _root, args, ctx) => updateUser(ctx, callerOf(ctx), args.id, args.input),
  }),
);
