import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { DeviceUnregisteredRef } from './notifications.types.ts';
import { unregisterDevice } from './service.ts';

builder.mutationField('unregisterDevice', (t) =>
  t.field({
    type: DeviceUnregisteredRef,
    description:
      "Remove the caller's registration of a push token (on sign-out); another user's is untouched. Session only",
    authScopes: { session: true },
    args: { token: t.arg.string({ required: true, description: 'The push token registerDevice was given' }) },
    errors: { types: [ValidationError], directResult: true },
    resolve: async (_root, args, ctx) => ({ removed: await unregisterDevice(ctx, callerOf(ctx).userId, args.token) }),
  }),
);
