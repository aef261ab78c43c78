import { builder, type ObjectFieldBuilder } from '../../graphql/builder.ts';
import { RateBandEnum, RepaymentFrequencyEnum } from '../../graphql/enums.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import type { RateBand } from '../../lib/vocabulary.ts';
import { RecalculationFailedError } from './errors.ts';
import { financierField } from '../organisations/financier.loader.ts';
import { productField, rateBracketField } from '../rate-cards/card.loader.ts';
import { amortisationSchedule, ratePerInstalment, type AmortisationRow } from './finance.ts';
import type { CalculatorRow, RateCardIdentity } from './rows.ts';
import { SCHEDULE_PAGE_DEFAULT, SCHEDULE_PAGE_MAX, schedulePage } from '../../graphql/cost.ts';
import type { CalculatorResult } from './service.ts';
import type { RecalculateResult } from './recalculate.ts';
import type { PricedBracket } from '../catalogue/model.ts';

export const AmortisationRowRef = builder.objectRef<AmortisationRow>('AmortisationRow').implement({
  description: 'One instalment; the last absorbs rounding so the balance ends exactly at the balloon',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Instalment number, from 1' }),
    opening: t.exposeFloat('opening', { description: 'Balance before this instalment, dollars' }),
    payment: t.exposeFloat('payment', { description: 'Instalment before any monthly fee' }),
    interest: t.exposeFloat('interest', { description: 'Interest charged in this period, dollars' }),
    principal: t.exposeFloat('principal', { description: 'Payment less interest: what the balance falls by' }),
    balance: t.exposeFloat('balance', { description: 'Balance after this instalment; the last ends at the balloon' }),
  }),
});

/** The schedule at the bracket's priced rate (min or max end of its band): instalments offset+1 .. offset+first. */
export function scheduleOf(priced: PricedBracket, band: RateBand, offset = 0, first = Infinity): AmortisationRow[] {
  const j = (band === 'min' ? priced.rate_min : priced.rate_max) / 100;
  const i = ratePerInstalment(j, priced.compounding_per_year, priced.instalments_per_year);
  return amortisationSchedule(
    i,
    priced.instalments,
    priced.amount_financed,
    priced.balloon,
    priced.advance,
    offset,
    first,
  );
}

/** Whose card a row prices (financier, product, rate bracket): declared here once for every result row type. */
export function rateCardIdentityFields(t: ObjectFieldBuilder<RateCardIdentity>) {
  return {
    organisation_id: t.exposeInt('organisation_id'),
    organisation_name: t.exposeString('organisation_name'),
    product_id: t.exposeInt('product_id'),
    product_name: t.exposeString('product_name'),
    rate_bracket_id: t.exposeInt('rate_bracket_id'),
    rate_bracket_name: t.exposeString('rate_bracket_name'),
  };
}

export const CalculatorRowRef = builder.objectRef<CalculatorRow>('CalculatorRow').implement({
  description:
    'One rate bracket priced for the deal. Rates and repayments are decimal strings (parse before comparing)',
  fields: (t) => ({
    ...rateCardIdentityFields(t),
    financier: t.loadable(financierField),
    product: t.loadable(productField),
    rate_bracket: t.loadable(rateBracketField),
    base_min: t.exposeString('base_min'),
    base_max: t.exposeString('base_max'),
    rate_min: t.exposeString('rate_min', { description: 'Priced nominal rate: base plus any brokerage loading' }),
    rate_max: t.exposeString('rate_max'),
    e_min: t.exposeString('e_min', { description: 'Effective annual rate on the money advanced for the asset' }),
    e_max: t.exposeString('e_max'),
    repayment_min: t.exposeString('repayment_min'),
    repayment_max: t.exposeString('repayment_max'),
    balloon: t.exposeFloat('balloon'),
    commission: t.exposeFloat('commission', { description: 'Brokerage paid, after caps and GST' }),
    amount_financed: t.exposeFloat('amount_financed'),
    instalments: t.exposeInt('instalments'),
    repayment_frequency: t.expose('repayment_frequency', { type: RepaymentFrequencyEnum }),
    advance: t.exposeBoolean('advance'),
    monthly_fee_per_instalment: t.exposeFloat('monthly_fee_per_instalment'),
    // Paginated so a request's size is known from its arguments before it runs (docs/graphql.md): the cost
    // analysis refuses a page beyond the maximum, and the resolver keeps to the same bounds.
    schedule: t.field({
      type: [AmortisationRowRef],
      description: `Instalments offset+1 .. offset+first (first: default ${SCHEDULE_PAGE_DEFAULT}, at most ${SCHEDULE_PAGE_MAX})`,
      args: {
        band: t.arg({ type: RateBandEnum, defaultValue: 'min' }),
        first: t.arg.int({
          defaultValue: SCHEDULE_PAGE_DEFAULT,
          description: `Instalments in the page, 0 to ${SCHEDULE_PAGE_MAX}`,
        }),
        offset: t.arg.int({ defaultValue: 0, description: 'Instalments skipped, 0 or more' }),
      },
      resolve: (row, args) =>
        scheduleOf(
          row.priced,
          args.band ?? 'min',
          Math.max(args.offset ?? 0, 0),
          schedulePage(args.first ?? undefined),
        ),
    }),
  }),
});

export const CalculatorResultRef = builder.objectRef<CalculatorResult>('CalculatorResult').implement({
  fields: (t) => ({
    results: t.field({ type: [CalculatorRowRef], resolve: (r) => r.results }),
    priced_count: t.exposeInt('priced_count'),
    scenario_id: t.exposeInt('scenario_id', { description: 'The recent scenario this run was saved as' }),
  }),
});

export const RecalculateResultRef = builder.objectRef<RecalculateResult>('RecalculateResult').implement({
  fields: (t) => ({
    rate_bracket_id: t.exposeInt('rate_bracket_id'),
    r_min: t.exposeFloat('r_min', { description: 'Rate per instalment, %' }),
    r_max: t.exposeFloat('r_max'),
    repayment_min: t.exposeFloat('repayment_min'),
    repayment_max: t.exposeFloat('repayment_max'),
    e_min: t.exposeFloat('e_min'),
    e_max: t.exposeFloat('e_max'),
  }),
});

export const FinancierOptionRef = builder.objectRef<{ id: number; name: string }>('FinancierOption').implement({
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }),
});

// ---------- errors ----------

builder.objectType(RecalculationFailedError, {
  name: 'RecalculationFailedError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ reason: t.exposeString('reason') }),
});
