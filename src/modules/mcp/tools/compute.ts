/** The read tools: find an asset, then price and place a deal (each run metered on the caller's daily allowances). */
import { defineTool, plain } from './define-tool.ts';

const DEAL_HINT =
  'Required: cost (asset cost in AUD, a number or a decimal string), asset_value (an asset id from search_assets), ' +
  'term (months), advance_arrears and repayment_frequency. Every other deal field is optional and narrows the answer.';

export const searchAssets = defineTool({
  name: 'search_assets',
  title: 'Search assets',
  description:
    'Find the asset being financed (e.g. "excavator", "prime mover", "passenger car") and its id. The id is the ' +
    'asset_value every pricing tool needs. Best matches first; not metered.',
  document: `query McpSearchAssets($q: String!, $limit: Int) {
    assetSearch(q: $q, limit: $limit) {
      __typename ... on QueryAssetSearchSuccess { data { id name alias path label } } ...ErrorFields } }`,
  write: false,
  arguments: {
    q: 'Words to look for in asset names, aliases and categories (1 to 100 characters)',
    limit: 'How many assets to return, 1 to 50 (default 20)',
  },
  answer: (r) => ({ assets: r.data }),
});

export const runCalculator = defineTool({
  name: 'run_calculator',
  title: 'Price a deal (Calculator)',
  description:
    "Prices a finance deal against every financier's rate card the caller can see, cheapest first: rates, " +
    `repayments and fees per rate bracket. Uses one run of the daily calculator allowance. ${DEAL_HINT}`,
  document: `query McpCalculate($input: DealInput!) {
    calculate(input: $input) {
      __typename ... on CalculatorResult { priced_count scenario_id results { ...CalculatorRowFields } }
      ...ErrorFields } }`,
  write: false,
  answer: plain,
});

export const runMatrix = defineTool({
  name: 'run_matrix',
  title: 'Find approvals (Approval Matrix)',
  description:
    'Finds which financiers would approve a deal, grouped by financier: each approval is confirmed, or possible ' +
    'with the answers still missing (missing_fields); approvals the deal breaks are left out. Uses one run of the ' +
    `daily Matrix allowance; needs the Matrix on the caller's plan. ${DEAL_HINT}`,
  document: `query McpMatrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { destination_count results { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  write: false,
  answer: plain,
});

export const runMatrixCalculator = defineTool({
  name: 'run_matrix_calculator',
  title: 'Price and place a deal (Matrix Calculator)',
  description:
    'Both at once: each row is a financier that can both price and approve the deal, with its rate, repayment and ' +
    'approval status, cheapest first. The best tool for "where should this deal go?". Uses one run of each daily ' +
    `allowance (calculator and Matrix); needs the Matrix on the caller's plan. ${DEAL_HINT}`,
  document: `query McpMatrixCalculator($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult {
        results { ...MatrixCalculatorRowFields } priced_count destination_count degraded
        priced { ...PricedCardFields } financiers { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  write: false,
  answer: (r) => {
    // `priced` and `financiers` appear only on the degraded run whose half they are (as in the REST body).
    const { priced, financiers, ...rest } = plain(r);
    return { ...rest, ...(priced ? { priced } : {}), ...(financiers ? { financiers } : {}) };
  },
});
