import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/api-tokens',
  document: `mutation RestCreateApiToken($name: String!, $scope: ApiTokenScope!, $expires_at: DateTime, $origin: ApiTokenOrigin) {
    createApiToken(name: $name, scope: $scope, expiresAt: $expires_at, origin: $origin) {
      __typename ... on CreatedApiToken { secret token { ...ApiTokenFields } } ...ErrorFields } }`,
  variables: (req) => ({
    name: body(req).name,
    scope: body(req).scope,
    expires_at: body(req).expires_at,
    origin: body(req).origin,
  }),
  respond: (r) => (r.__typename === 'CreatedApiToken' ? [201, { ...r.token, token: r.secret }] : undefined),
});
