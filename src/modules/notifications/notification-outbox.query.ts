import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';

builder.queryField('notificationOutbox', (t) =>
  t.prismaConnection({
    type: 'NotificationOutbox',
    cursor: 'id',
    description: "What delivery did with the caller's notifications, newest first. Session only",
    authScopes: { session: true },
    errors: { dataField: { description: 'The page of entries' } },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.notificationOutbox.findMany({
        ...query,
        where: { user_id: callerOf(ctx).userId },
        orderBy: { id: 'desc' },
      }),
  }),
);
