import { defineRoute } from '../../define-route.ts';

export const API_TOKEN_FIELDS = 'id name token_id last_four scope environment origin created_at expires_at last_used_at revoked_at';

export default defineRoute({
  method: 'get', path: '/api-tokens',
  document: `query RestApiTokens { apiTokens { __typename ... on QueryApiTokensSuccess { data { ${API_TOKEN_FIELDS} } } ...ErrorFields } }`,
  respond: (r) => (r.__typename === 'QueryApiTokensSuccess' ? [200, r.data] : undefined),
});
