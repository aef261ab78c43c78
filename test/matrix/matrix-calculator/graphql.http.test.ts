/**
 * Spec (api-v1.md): GraphQL matrixCalculator(input): the same rows as POST /api/v1/matrix-calculator/, and typed errors
 * (ValidationError, EntitlementRequiredError, CapHitError, FeatureDisabledError).
 */
import { describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { startTestApp } from '../../../testkit/app.ts';
import { clock, t, pro, free, UNLIMITED, DEAL, SALES_TALK, useMatrixCalculatorApp, run, prisma } from './fixtures.ts';

useMatrixCalculatorApp();

const FULL_ROW = `organisation_id organisation_name approval_id approval_name doc_level status missing_fields deposit_percentage
  deposit_amount deposit_required max_term product_id product_name rate_bracket_id rate_bracket_name base_min base_max e_min e_max
  repayment_min repayment_max balloon commission masked priced_bracket_count`;
const MATRIX_CALCULATOR = gql`
  query Dashboard($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult { results { ${FULL_ROW} } priced_count destination_count degraded }
      ... on Error { message code }
      ... on ValidationError { errors { field messages } }
      ... on CapHitError { detail limit used metric }
      ... on EntitlementRequiredError { detail entitlement }
      ... on FeatureDisabledError { detail }
    }
  }`;

describe('GraphQL matrixCalculator(input): the same rows as REST, and typed errors', () => {
  it('returns the same rows, counts and degraded flag as POST /matrix-calculator/', async () => {
    const data: any = await t.graphql(pro).request(MATRIX_CALCULATOR, { input: DEAL });
    const rest = await run(pro, DEAL);
    expect(data.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
    const { __typename, ...result } = data.matrixCalculator;
    expect(result).toEqual(rest.body);
  });

  it('a dashboard asking for only some fields gets just those, in the same order', async () => {
    const data: any = await t.graphql(pro).request(
      gql`
      query Few($input: DealInput!) { matrixCalculator(input: $input) { ... on MatrixCalculatorResult { results { approval_name e_min masked } } } }`,
      { input: DEAL },
    );
    const rest = await run(pro, DEAL);
    expect(data.matrixCalculator.results).toEqual(
      rest.body.results.map((r: any) => ({ approval_name: r.approval_name, e_min: r.e_min, masked: r.masked })),
    );
  });

  it('ValidationError names the fields (missing term, consumer type)', async () => {
    const { term: _term, ...noTerm } = DEAL;
    const data: any = await t.graphql(pro).request(MATRIX_CALCULATOR, { input: { ...noTerm, type: 'consumer' } });
    expect(data.matrixCalculator.__typename).toBe('ValidationError');
    expect(data.matrixCalculator.errors.map((e: any) => e.field).sort()).toEqual(['term', 'type']);
  });

  it('EntitlementRequiredError for the Free broker, worded for the client header', async () => {
    const web: any = await t.graphql(free).request(MATRIX_CALCULATOR, { input: DEAL });
    expect(web.matrixCalculator).toEqual({
      __typename: 'EntitlementRequiredError',
      code: 'entitlement_required',
      message: expect.any(String),
      detail: expect.any(String),
      entitlement: 'matrix.enabled',
    });
    const android: any = await t
      .graphql(free, { 'X-Service-Client': 'android' })
      .request(MATRIX_CALCULATOR, { input: DEAL });
    expect(android.matrixCalculator.message).toBe(android.matrixCalculator.detail);
    expect(android.matrixCalculator.message).not.toMatch(SALES_TALK);
  });

  it('CapHitError with limit, used and metric once an allowance is spent', async () => {
    const userId = (await prisma().user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
    await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: { calculator_allowance: 1 } } });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
    try {
      const session = (await t.login('broker.user@demo.test')).access;
      const first: any = await t.graphql(session).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(first.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
      const second: any = await t.graphql(session).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(second.matrixCalculator).toEqual({
        __typename: 'CapHitError',
        code: 'cap_hit',
        message: expect.any(String),
        detail: expect.any(String),
        limit: 1,
        used: 1,
        metric: 'calculator',
      });
    } finally {
      await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: UNLIMITED } });
      await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
    }
  });

  it('FeatureDisabledError when the surface is switched off', async () => {
    const off = await startTestApp({
      clock,
      shareDatabaseWith: t,
      config: { disabledSurfaces: ['matrix_calculator'] },
    });
    try {
      const data: any = await off.graphql(pro).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(data.matrixCalculator).toEqual({
        __typename: 'FeatureDisabledError',
        code: 'feature_disabled',
        message: expect.any(String),
        detail: expect.any(String),
      });
    } finally {
      await off.close();
    }
  });
});
