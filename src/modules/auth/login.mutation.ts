import { builder } from '../../graphql/builder.ts';
import { RateLimitedError } from '../../lib/errors.ts';
import { TokenPairRef } from './auth.types.ts';
import { login } from './service.ts';

builder.mutationField('login', (t) =>
  t.field({
    type: TokenPairRef,
    description:
      'Sign in with email and password; a wrong password, an unknown email and an inactive user fail alike. Repeated failures lock the email and the client address out for a growing time (RateLimitedError)',
    args: {
      email: t.arg.string({ required: true, description: 'The account email (case-insensitive)' }),
      password: t.arg.string({ required: true, description: 'Its password' }),
    },
    errors: { types: [RateLimitedError], directResult: true },
    resolve: (_root, args, ctx) => login(ctx, args.email, args.password, ctx.clientAddress),
  }),
);
