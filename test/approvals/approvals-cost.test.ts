/**
 * The cost limits price approvals by what they can hold: a connection's edges by the page asked for (first/last,
 * capped like the resolver), an approval's lists by the catalogue's sizes and the vocabulary, the REST list by its cap.
 */
import { describe, expect, it } from 'vitest';
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { schema } from '../../src/graphql-server/schema.ts';
import { DECLARED_SIZES, analyseOperation, type CatalogueSizes } from '../../src/graphql-server/cost.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/graphql/builder.ts';
import { MAX_REST_APPROVALS } from '../../src/modules/approvals/validate.ts';

function costOf(document: string, sizes: CatalogueSizes = DECLARED_SIZES, variables: Record<string, unknown> = {}) {
  const parsed = parse(document);
  const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    parsed.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  return analyseOperation(schema, operation, fragments, sizes, variables).cost;
}

const page = (args: string) =>
  `query Q($n: Int) { approvals${args} { ... on QueryApprovalsSuccess { data { edges { node { id name } } } } } }`;

describe('approvals connection: edges cost the page asked for, within the cap', () => {
  it('grows with first, reads first from a variable, and stops at the cap', () => {
    const one = costOf(page('(first: 1)'));
    const ten = costOf(page('(first: 10)'));
    // Each edge: the edge, its node and two scalars (4); the rest is the fixed frame.
    expect(ten - one).toBe(9 * 4);
    expect(costOf(page('(first: $n)'), DECLARED_SIZES, { n: 10 })).toBe(ten);
    expect(costOf(page('(first: 5000)'))).toBe(costOf(page(`(first: ${MAX_PAGE_SIZE})`)));
    expect(costOf(page('(last: 10)'))).toBe(ten);
  });

  it('without first or last costs the default page', () => {
    expect(costOf(page(''))).toBe(costOf(page(`(first: ${DEFAULT_PAGE_SIZE})`)));
  });
});

describe("an approval's lists cost what they can hold", () => {
  it('asset_ids and rate_bracket_ids follow the catalogue sizes, transaction_types the vocabulary', () => {
    const q = (field: string) => `query { approval(id: 1) { ... on Approval { ${field} } } }`;
    const small = { ...DECLARED_SIZES, assetsPerApproval: 3, bracketsPerApproval: 2 };
    expect(costOf(q('asset_ids'), small)).toBe(costOf(q('id'), small) + 2);
    expect(costOf(q('rate_bracket_ids'), small)).toBe(costOf(q('id'), small) + 1);
    expect(costOf(q('transaction_types'), small)).toBe(costOf(q('id'), small) + 3);
  });

  it('the REST list is priced at its cap, and approval on Matrix Calculator rows by the rows it can have', () => {
    const list = costOf('query { approvalList { ... on ApprovalList { approvals { id } } } }');
    expect(list).toBeGreaterThanOrEqual(MAX_REST_APPROVALS * 2);
    const rows = (approvals: number, selection: string) =>
      costOf(
        `query Q($input: DealInput!) { matrixCalculator(input: $input) { ... on MatrixCalculatorResult { results { ${selection} } } } }`,
        { ...DECLARED_SIZES, approvals },
      );
    const perRow = (rows(100, 'approval { id name }') - rows(100, 'approval_id')) / 100;
    expect(perRow).toBe(2); // approval + id + name, less approval_id
    expect(rows(1000, 'approval { id name }') - rows(1000, 'approval_id')).toBe(1000 * perRow);
  });
});
