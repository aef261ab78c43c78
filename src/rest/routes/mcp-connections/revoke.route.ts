import { defineRoute, intParam } from '../../define-route.ts';

/**
 * DELETE /mcp-connections/{id}: revokes the connection's token; 204 on the first call and on every later one (the
 * first revocation time is kept). API tokens 403 (session only); another user's connection 404, like a missing one.
 */
export default defineRoute({
  method: 'delete',
  path: '/mcp-connections/:id',
  document: `mutation RestRevokeMcpConnection($id: Int!) { revokeMcpConnection(id: $id) { __typename ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id) }),
  respond: (r) => (r.__typename === 'McpConnection' ? [204] : undefined),
});
