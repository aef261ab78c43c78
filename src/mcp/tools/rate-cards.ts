/**
 * Rate-card edits (read_write tokens only). Each records a restore point with this connection as its origin, like
 * any other change to the card; expected_version guards against editing a card someone changed since it was read.
 */
import { defineTool, plain } from './define-tool.ts';

const CHANGE_FIELDS = `card_version restore_point { id } product { id product_name }
  rate_bracket { id name product_id base_min base_max }`;
/** A stale expected_version: the card's version now, so the assistant can re-read and retry with it. */
const CONFLICT_FIELDS = '... on RateCardVersionConflictError { current_version }';
const EXPECTED_VERSION =
  'The rate card version you last read; if the card changed since, nothing is written and the tool error carries ' +
  'current_version: re-read the card, then retry with that version';
const WHO = "Needs a read_write token, permission to change the rate card, and the caller's own financier's card.";

export const updateRateBracket = defineTool({
  name: 'update_rate_bracket',
  title: 'Update a rate bracket',
  description:
    'Changes one rate bracket of your rate card (e.g. its base rates, term or amount bounds): fields left out are ' +
    `kept, null clears one. ${WHO}`,
  document: `mutation McpUpdateRateBracket($id: Int!, $input: RateBracketPatchInput!, $expected_version: Int) {
    updateRateBracket(id: $id, input: $input, expectedVersion: $expected_version) {
      __typename ... on RateCardChange { ${CHANGE_FIELDS} } ${CONFLICT_FIELDS} ...ErrorFields } }`,
  write: true,
  arguments: { id: 'The rate bracket id', input: 'The fields to change', expected_version: EXPECTED_VERSION },
  answer: plain,
});

export const createRateBracket = defineTool({
  name: 'create_rate_bracket',
  title: 'Create a rate bracket',
  description: `Adds a rate bracket to one of your products. ${WHO}`,
  document: `mutation McpCreateRateBracket($input: RateBracketInput!, $expected_version: Int) {
    createRateBracket(input: $input, expectedVersion: $expected_version) {
      __typename ... on RateCardChange { ${CHANGE_FIELDS} } ${CONFLICT_FIELDS} ...ErrorFields } }`,
  write: true,
  arguments: { input: 'The new rate bracket', expected_version: EXPECTED_VERSION },
  answer: plain,
});

export const updateProduct = defineTool({
  name: 'update_product',
  title: 'Update a product',
  description: `Changes one product of your rate card (the rules its brackets share): fields left out are kept. ${WHO}`,
  document: `mutation McpUpdateProduct($id: Int!, $input: ProductPatchInput!, $expected_version: Int) {
    updateProduct(id: $id, input: $input, expectedVersion: $expected_version) {
      __typename ... on RateCardChange { ${CHANGE_FIELDS} } ${CONFLICT_FIELDS} ...ErrorFields } }`,
  write: true,
  arguments: { id: 'The product id', input: 'The fields to change', expected_version: EXPECTED_VERSION },
  answer: plain,
});
