import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotificationPreferencesRef } from './notifications.types.ts';
import { getPreferences } from './service.ts';

builder.queryField('notificationPreferences', (t) =>
  t.field({
    type: NotificationPreferencesRef,
    description: "The caller's notification preferences (the defaults until they change one). Session only",
    authScopes: { session: true },
    errors: { directResult: true },
    resolve: (_root, _args, ctx) => getPreferences(ctx, callerOf(ctx).userId),
  }),
);
