import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/feature-flags',
  document: `query RestFeatureFlags { featureFlags { __typename ... on FeatureFlags {
    plan entitlements surfaces { calculator consumer_calculator matrix matrix_calculator } } ...ErrorFields } }`,
  respond: (r) =>
    r.__typename === 'FeatureFlags'
      ? [200, { plan: r.plan, entitlements: r.entitlements, surfaces: r.surfaces }]
      : undefined,
});
