import { builder } from '../../graphql/builder.ts';
import { ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import { MessageRef } from './auth.types.ts';
import { resendVerification } from './service.ts';

builder.mutationField('resendVerification', (t) =>
  t.field({
    type: MessageRef,
    description: 'Same answer whether or not the account exists or is verified',
    args: { email: t.arg.string({ required: true, description: 'The account email' }) },
    errors: { types: [ValidationError], directResult: true },
    resolve: async (_root, args, ctx) => {
      await resendVerification(ctx, args.email);
      return { message: say('resend_verification', ctx.client) };
    },
  }),
);
