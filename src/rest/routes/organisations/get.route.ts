/**
 * GET /organisations/{id}: the caller's own organisation in full; a financier that appears in the caller's results as
 * its public profile `{id, name, type: "f"}`; any other id 404 with the body of a missing one (docs/team.md).
 */
import { defineRoute, intParam } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/organisations/:id',
  document: `query RestOrganisation($id: Int!) {
    organisationView(id: $id) { __typename
      ... on QueryOrganisationViewSuccess { data { __typename
        ... on Organisation { id name type abn is_bid_broker created_at updated_at }
        ... on FinancierProfile { id name } } }
      ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id) }),
  respond: (r) => {
    if (r.__typename !== 'QueryOrganisationViewSuccess') return undefined;
    const { __typename, ...organisation } = r.data;
    // A profile is a financier's by definition: its type is stated, nothing else of its record is.
    return [200, __typename === 'FinancierProfile' ? { ...organisation, type: 'f' } : organisation];
  },
});
