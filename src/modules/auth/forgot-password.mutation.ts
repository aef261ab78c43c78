import { builder } from '../../graphql/builder.ts';
import { ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import { MessageRef } from './auth.types.ts';
import { forgotPassword } from './service.ts';

builder.mutationField('forgotPassword', (t) =>
  t.field({
    type: MessageRef,
    description: 'Always the same answer, whether or not the account exists',
    args: { email: t.arg.string({ required: true, description: 'The account email' }) },
    errors: { types: [ValidationError], directResult: true },
    resolve: async (_root, args, ctx) => {
      await forgotPassword(ctx, args.email);
      return { message: say('forgot_password', ctx.client) };
    },
  }),
);
