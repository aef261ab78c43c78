import { defineRoute, intParam } from '../../define-route.ts';

export default defineRoute({
  method: 'delete',
  path: '/api-tokens/:id',
  document: `mutation RestRevokeApiToken($id: Int!) { revokeApiToken(id: $id) { __typename ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id) }),
  respond: (r) => (r.__typename === 'ApiToken' ? [204] : undefined),
});
