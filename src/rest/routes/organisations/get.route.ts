import { defineRoute, intParam } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/organisations/:id',
  document: `query RestOrganisation($id: Int!) {
    organisation(id: $id) { __typename ... on Organisation { id name type abn is_bid_broker created_at updated_at } ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id) }),
  respond: (r) => {
    if (r.__typename === 'Organisation') {
      const { __typename, ...organisation } = r;
      return [200, organisation];
    }
    return undefined;
  },
});
