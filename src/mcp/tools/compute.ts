/** The read tools: find an asset, then price and place a deal (each run metered on the caller's daily allowances). */
import { ValidationError } from '../../lib/errors.ts';
import { type DealRequest, type DealSurface, validatedDeal } from '../../modules/deal/index.ts';
import { defineTool, plain } from './define-tool.ts';

/**
 * The deal fields a surface requires, read from the deal module's own rules: those an empty deal is refused for. So a
 * tool's schema requires exactly what its endpoint refuses a deal without, and the two cannot drift.
 */
function requiredDealFields(surface: DealSurface): string[] {
  try {
    validatedDeal({} as DealRequest, surface, new Date(0));
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors.map((e) => e.field);
    throw error;
  }
  return [];
}

/** What a deal tool's description says about its input: the required fields, named from the same list. */
function dealHint(required: readonly string[], more = ''): string {
  return (
    `Required: ${required.join(', ')}. cost is the asset cost in AUD (a number or a decimal string); asset_value ` +
    `is an asset id from search_assets.${more} Every other deal field is optional and narrows the answer.`
  );
}

const CALCULATOR_REQUIRED = requiredDealFields('calculator');
const MATRIX_REQUIRED = requiredDealFields('matrix');
const MATRIX_CALCULATOR_REQUIRED = requiredDealFields('matrix_calculator');
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
    "Prices a finance deal against every financier's rate card the caller can see. Returns results (one row per " +
    'rate bracket, cheapest first: rates, repayments, fees, amount financed), priced_count, and scenario_id ' +
    '(save_scenario keeps the run under a name). Uses one run of the daily calculator allowance. ' +
    dealHint(CALCULATOR_REQUIRED),
  document: `query McpCalculate($input: DealInput!) {
    calculate(input: $input) {
      __typename ... on CalculatorResult { priced_count scenario_id results { ...CalculatorRowFields } }
      ...ErrorFields } }`,
  write: false,
  required: CALCULATOR_REQUIRED,
  answer: plain,
});

export const runMatrix = defineTool({
  name: 'run_matrix',
  title: 'Find approvals (Approval Matrix)',
  description:
    'Finds which financiers would approve a deal, without pricing it. Returns results grouped by financier: each ' +
    'approval is confirmed, or possible with the answers still missing (missing_fields); approvals the deal breaks ' +
    "are left out; and destination_count. Uses one run of the daily Matrix allowance; needs the Matrix on the caller's " +
    `plan. ${dealHint(
      MATRIX_REQUIRED,
      ' term is optional here: without it, approvals that bound the term come back possible, with term missing.',
    )}`,
  document: `query McpMatrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { destination_count results { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  write: false,
  required: MATRIX_REQUIRED,
  answer: plain,
});

export const runMatrixCalculator = defineTool({
  name: 'run_matrix_calculator',
  title: 'Price and place a deal (Matrix Calculator)',
  description:
    'Prices and places a deal at once; the best tool for "where should this deal go?". Returns results: one row per ' +
    'financier that can both price and approve the deal, cheapest first, with its rate, repayment and approval ' +
    'status; priced_count, destination_count, and degraded (null, or the half that could not be checked, the other ' +
    'half then returned as priced or financiers). Commercial deals only. Uses one run of each daily allowance ' +
    `(calculator and Matrix); needs the Matrix on the caller's plan. ${dealHint(MATRIX_CALCULATOR_REQUIRED)}`,
  document: `query McpMatrixCalculator($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult {
        results { ...MatrixCalculatorRowFields } priced_count destination_count degraded
        priced { ...PricedCardFields } financiers { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  write: false,
  required: MATRIX_CALCULATOR_REQUIRED,
  answer: (r) => {
    // `priced` and `financiers` appear only on the degraded run whose half they are (as in the REST body).
    const { priced, financiers, ...rest } = plain(r);
    return { ...rest, ...(priced ? { priced } : {}), ...(financiers ? { financiers } : {}) };
  },
});

export const whatWouldItTake = defineTool({
  name: 'what_would_it_take',
  title: 'What would it take? (structuring)',
  description:
    'For every financier approval the deal does not get, what blocks it (a lever the broker controls: deposit, ' +
    'term, balloon; time: ABN, GST, credit-file or borrower age; or a fact no structuring changes) and the smallest ' +
    'change that gets it, priced by the same financier; plus cheapest: the cheapest reachable change within the ' +
    "bounds. Uses one run of the daily Matrix allowance; needs the Matrix on the caller's plan. The deal in input: " +
    dealHint(MATRIX_CALCULATOR_REQUIRED),
  document: `query McpWhatWouldItTake($input: DealInput!, $bounds: StructuringBoundsInput, $rank_by: StructuringRankBy,
    $doc_levels: [DocLevel!], $organisation_ids: [Int!]) {
    whatWouldItTake(input: $input, bounds: $bounds, rankBy: $rank_by, docLevels: $doc_levels, organisationIds: $organisation_ids) {
      __typename
      ...WhatWouldItTakeFields
      ...ErrorFields } }`,
  write: false,
  arguments: {
    input: 'The deal, with the fields of run_matrix_calculator',
    bounds: "The broker's bounds: max_deposit (dollars), min_term and max_term (months), min_balloon and max_balloon",
    rank_by: 'repayment (default) or rate: how cheapest is ranked',
    doc_levels: 'Only approvals at these doc levels (low_doc, lite_doc, full_doc)',
    organisation_ids: 'Only these financiers',
  },
  answer: plain,
});
