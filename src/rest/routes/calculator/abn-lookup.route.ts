import { body, defineRoute } from '../../define-route.ts';

const ABN_DETAILS_FIELDS =
  'abn entity_name entity_type abn_status abn_status_effective_from business_names state postcode ' +
  'abn_registered_from gst_registered_from abn_age gst_age';

/**
 * POST /calculator/abn-lookup, body `{abn}`: one of the five computation endpoints a read API token may call.
 * 200: AbnDetails. 400 (`abn`), 401, 404 (no such ABN), 502 (register unreachable or answered badly), 503 (not configured).
 */
export default defineRoute({
  method: 'post',
  path: '/calculator/abn-lookup',
  document: `query RestAbnLookup($abn: String!) {
    abnLookup(abn: $abn) { __typename ... on AbnDetails { ${ABN_DETAILS_FIELDS} } ...ErrorFields } }`,
  variables: (req) => ({ abn: body(req).abn }),
  respond: (r) => {
    if (r.__typename === 'AbnDetails') {
      const { __typename, ...details } = r;
      return [200, details];
    }
    return undefined;
  },
});
