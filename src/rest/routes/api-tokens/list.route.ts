import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/api-tokens',
  document: `query RestApiTokens { apiTokens { __typename ... on QueryApiTokensSuccess { data { ...ApiTokenFields } } ...ErrorFields } }`,
  respond: (r) => (r.__typename === 'QueryApiTokensSuccess' ? [200, r.data] : undefined),
});
