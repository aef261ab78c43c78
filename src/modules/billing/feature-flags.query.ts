import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { SURFACES } from '../../lib/vocabulary.ts';
import { FeatureFlagsRef, type SurfaceStates } from './billing.types.ts';
import { surfaceState } from './entitlements.ts';
import { termsOf } from '../../lib/caller.ts';

builder.queryField('featureFlags', (t) =>
  t.field({
    type: FeatureFlagsRef,
    description: "Which surfaces the caller can use now, and the caller's entitlements",
    authScopes: { signedIn: true },
    errors: { directResult: true },
    resolve: (_root, _args, ctx) => {
      const caller = callerOf(ctx);
      const surfaces = Object.fromEntries(SURFACES.map((s) => [s, surfaceState(ctx, caller, s)])) as SurfaceStates;
      return { surfaces, entitlements: termsOf(caller).entitlements, plan: caller.organisation?.plan ?? 'free' };
    },
  }),
);
