import { builder } from '../../graphql/builder.ts';
import { TokenPairRef } from './auth.types.ts';
import { login } from './service.ts';

builder.mutationField('login', (t) =>
  t.field({
    type: TokenPairRef,
    description: 'Sign in with email and password; a wrong password, an unknown email and an inactive user fail alike',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    errors: { directResult: true },
    resolve: (_root, args, ctx) => login(ctx, args.email, args.password),
  }),
);
