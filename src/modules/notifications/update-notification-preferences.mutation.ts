import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { NotificationPreferencesRef, UpdateNotificationPreferencesInput } from './notifications.types.ts';
import { updatePreferences } from './service.ts';

builder.mutationField('updateNotificationPreferences', (t) =>
  t.field({
    type: NotificationPreferencesRef,
    description: 'Change notification preferences; every field optional. Session only',
    authScopes: { session: true },
    args: {
      input: t.arg({ type: UpdateNotificationPreferencesInput, required: true, description: 'The settings to change' }),
    },
    errors: { types: [ValidationError], directResult: true },
    resolve: (_root, args, ctx) => updatePreferences(ctx, callerOf(ctx).userId, args.input),
  }),
);
