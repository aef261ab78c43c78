import { builder } from '../../graphql/builder.ts';
import { OkRef } from './auth.types.ts';
import { logout } from './service.ts';

builder.mutationField('logout', (t) =>
  t.field({
    type: OkRef,
    description: 'Revoke the sign-in the refresh token belongs to (its refresh and access tokens end at once)',
    args: { refresh: t.arg.string({ required: true, description: 'The refresh token of the sign-in to end' }) },
    errors: { directResult: true },
    resolve: async (_root, args, ctx) => {
      await logout(ctx, args.refresh);
      return { ok: true };
    },
  }),
);
