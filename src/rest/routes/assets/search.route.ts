import { defineRoute, intParam } from '../../define-route.ts';

const ASSET_SEARCH_FIELDS = 'id name alias parent_id path label';

/** GET /assets/search?q=&limit=: any signed-in caller (read API tokens too). 200: a JSON array, best match first. */
export default defineRoute({
  method: 'get',
  path: '/assets/search',
  document: `query RestAssetSearch($q: String!, $limit: Int) {
    assetSearch(q: $q, limit: $limit) { __typename ... on QueryAssetSearchSuccess { data { ${ASSET_SEARCH_FIELDS} } } ...ErrorFields } }`,
  variables: (req) => ({
    q: req.query.q,
    limit: req.query.limit === undefined ? undefined : intParam(req.query.limit),
  }),
  respond: (r) => (r.__typename === 'QueryAssetSearchSuccess' ? [200, r.data] : undefined),
});
