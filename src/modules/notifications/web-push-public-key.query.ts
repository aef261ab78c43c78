import { builder } from '../../graphql/builder.ts';

builder.queryField('webPushPublicKey', (t) =>
  t.string({
    nullable: true,
    description:
      'The VAPID public key (base64url) a browser passes as applicationServerKey to pushManager.subscribe(); null when Web Push is not configured',
    authScopes: { signedIn: true },
    errors: { dataField: { description: 'The VAPID public key, base64url' } },
    resolve: (_root, _args, ctx) => ctx.config.vapid?.publicKey ?? null,
  }),
);
