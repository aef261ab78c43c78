import { body, defineRoute } from '../../define-route.ts';
import { FINANCIER_GROUP_FIELDS } from './matrix.route.ts';

const ROW_FIELDS = `organisation_id organisation_name approval_id approval_name doc_level status missing_fields
  deposit_percentage deposit_amount deposit_required max_term product_id product_name rate_bracket_id rate_bracket_name
  base_min base_max e_min e_max repayment_min repayment_max balloon commission masked priced_bracket_count`;
const PRICED_FIELDS = `organisation_id organisation_name product_id product_name rate_bracket_id rate_bracket_name
  base_min base_max rate_min rate_max e_min e_max repayment_min repayment_max balloon commission amount_financed instalments masked`;

export default defineRoute({
  method: 'post', path: '/matrix-calculator/',
  document: `query RestMatrixCalculator($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult {
        results { ${ROW_FIELDS} } priced_count destination_count degraded
        priced { ${PRICED_FIELDS} } financiers { ${FINANCIER_GROUP_FIELDS} } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixCalculatorResult') {
      const { __typename, priced, financiers, ...rest } = r;
      // `priced` and `financiers` appear only on the degraded run whose half they are.
      return [200, { ...rest, ...(priced ? { priced } : {}), ...(financiers ? { financiers } : {}) }];
    }
    return undefined;
  },
});
