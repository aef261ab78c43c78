import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { DevicePlatformEnum, DeviceRef, WebPushKeysInput } from './notifications.types.ts';
import { registerDevice } from './service.ts';

builder.mutationField('registerDevice', (t) =>
  t.field({
    type: DeviceRef,
    description:
      'Register (or refresh) this install for pushes, with the zone it reports. A token belongs to one user: the latest registration wins. Session only',
    authScopes: { session: true },
    args: {
      token: t.arg.string({
        required: true,
        description: 'APNs device token, FCM registration token, or the Web Push subscription endpoint URL',
      }),
      platform: t.arg({ type: DevicePlatformEnum, required: true, description: 'Where the install lives' }),
      timezone: t.arg.string({ description: "The install's IANA zone; becomes the user's unless they chose one" }),
      webPushKeys: t.arg({ type: WebPushKeysInput, description: 'web only: the subscription keys' }),
    },
    errors: { types: [ValidationError], directResult: true },
    resolve: (_root, args, ctx) =>
      registerDevice(ctx, callerOf(ctx).userId, {
        token: args.token,
        platform: args.platform,
        timezone: args.timezone,
        web_push_keys: args.webPushKeys,
      }),
  }),
);
