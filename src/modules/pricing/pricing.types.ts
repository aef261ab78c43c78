import { builder, type ObjectFieldBuilder } from '../../graphql/builder.ts';
import { RateBandEnum, RepaymentFrequencyEnum } from '../../graphql/enums.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import type { RateBand } from '../../lib/vocabulary.ts';
import { RecalculationFailedError } from './errors.ts';
import { financierField } from '../organisations/financier.loader.ts';
import { productField, rateBracketField } from '../rate-cards/card.loader.ts';
import { amortisationSchedule, ratePerInstalment, type AmortisationRow } from './finance.ts';
import type { CalculatorRow, RateCardIdentity } from './rows.ts';
import { SCHEDULE_PAGE_DEFAULT, SCHEDULE_PAGE_MAX, schedulePage } from '../../graphql/schedule-page.ts';
import type { CalculatorResult } from './service.ts';
import type { RecalculateResult } from './recalculate.ts';
import type { PricedBracket } from './engine.ts';

const AmortisationRowRef = builder.objectRef<AmortisationRow>('AmortisationRow').implement({
  description: 'One instalment; the last absorbs rounding so the balance ends exactly at the balloon',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Instalment number, from 1' }),
    opening: t.exposeFloat('opening', { description: 'Balance before this instalment, dollars' }),
    payment: t.exposeFloat('payment', { description: 'Instalment before any monthly fee, dollars' }),
    interest: t.exposeFloat('interest', { description: 'Interest charged in this period, dollars' }),
    principal: t.exposeFloat('principal', { description: 'Payment less interest: what the balance falls by, dollars' }),
    balance: t.exposeFloat('balance', {
      description: 'Balance after this instalment, dollars; the last ends at the balloon',
    }),
  }),
});

/** The schedule at the bracket's priced rate (min or max end of its band): instalments offset+1 .. offset+first. */
function scheduleOf(priced: PricedBracket, band: RateBand, offset = 0, first = Infinity): AmortisationRow[] {
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
    organisation_id: t.exposeInt('organisation_id', { description: 'The financier whose rate card priced this row' }),
    organisation_name: t.exposeString('organisation_name', { description: "The financier's name" }),
    product_id: t.exposeInt('product_id', { description: 'The product the rate bracket belongs to' }),
    product_name: t.exposeString('product_name', { description: "The product's name" }),
    rate_bracket_id: t.exposeInt('rate_bracket_id', {
      description: 'The rate bracket priced (the Matrix Calculator joins approvals on it)',
    }),
    rate_bracket_name: t.exposeString('rate_bracket_name', { description: "The rate bracket's name" }),
  };
}

const CalculatorRowRef = builder.objectRef<CalculatorRow>('CalculatorRow').implement({
  description:
    'One rate bracket priced for the deal. Rates (percent, 4 decimal places) and repayments (dollars, to the cent) are decimal strings: parse before comparing',
  fields: (t) => ({
    ...rateCardIdentityFields(t),
    financier: t.loadable(financierField),
    product: t.loadable(productField),
    rate_bracket: t.loadable(rateBracketField),
    base_min: t.exposeString('base_min', {
      description:
        "The card's annual base rate at the low end of the bracket's band, percent: the _min figures price at it",
    }),
    base_max: t.exposeString('base_max', {
      description: "The card's annual base rate at the high end of the band, percent: the _max figures price at it",
    }),
    rate_min: t.exposeString('rate_min', {
      description: 'Priced nominal annual rate at base_min, percent: base plus any brokerage loading',
    }),
    rate_max: t.exposeString('rate_max', {
      description: 'Priced nominal annual rate at base_max, percent: base plus any brokerage loading',
    }),
    e_min: t.exposeString('e_min', {
      description:
        'Effective annual rate on the money advanced for the asset at rate_min, percent; financed fees and funded brokerage raise it. Rows sort on it',
    }),
    e_max: t.exposeString('e_max', {
      description: 'Effective annual rate on the money advanced for the asset at rate_max, percent',
    }),
    repayment_min: t.exposeString('repayment_min', {
      description: "Each instalment at rate_min, dollars, including the product's monthly fee share",
    }),
    repayment_max: t.exposeString('repayment_max', {
      description: "Each instalment at rate_max, dollars, including the product's monthly fee share",
    }),
    balloon: t.exposeFloat('balloon', { description: 'Lump sum due with the last instalment, dollars' }),
    commission: t.exposeFloat('commission', {
      description: 'Brokerage paid, after the product caps, dollars GST-inclusive',
    }),
    amount_financed: t.exposeFloat('amount_financed', {
      description:
        'Amount financed (NAF), dollars: GST-inclusive cost less deposit, plus origination fee, any financed doc fee and funded brokerage',
    }),
    instalments: t.exposeInt('instalments', {
      description: 'Number of instalments: the term in months times instalments per year / 12, rounded',
    }),
    repayment_frequency: t.expose('repayment_frequency', {
      type: RepaymentFrequencyEnum,
      description: 'How often instalments fall, as the deal asked (none prices monthly)',
    }),
    advance: t.exposeBoolean('advance', {
      description: 'true: instalments in advance (the first at settlement); false: in arrears',
    }),
    monthly_fee_per_instalment: t.exposeFloat('monthly_fee_per_instalment', {
      description:
        "The product's monthly fee share in each repayment, dollars (monthly fee x 12 / instalments per year); not financed, not in e_min",
    }),
    // Paginated so a request's size is known from its arguments before it runs (docs/graphql.md): the cost
    // analysis refuses a page beyond the maximum, and the resolver keeps to the same bounds.
    schedule: t.field({
      type: [AmortisationRowRef],
      description: `The amortisation schedule at one end of the rate band, a page at a time: instalments offset+1 .. offset+first (first: default ${SCHEDULE_PAGE_DEFAULT}, at most ${SCHEDULE_PAGE_MAX})`,
      args: {
        band: t.arg({
          type: RateBandEnum,
          defaultValue: 'min',
          description: 'Which end of the rate band to schedule: min (rate_min) or max (rate_max)',
        }),
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
  description: "A calculator run: every rate bracket in the caller's book that priced the deal",
  fields: (t) => ({
    results: t.field({
      type: [CalculatorRowRef],
      description: 'Priced rate brackets, cheapest first: lowest e_min, then lowest repayment_min, then id',
      resolve: (r) => r.results,
    }),
    priced_count: t.exposeInt('priced_count', { description: 'How many rate brackets priced the deal' }),
    scenario_id: t.exposeInt('scenario_id', { description: 'The recent scenario this run was saved as' }),
  }),
});

export const RecalculateResultRef = builder.objectRef<RecalculateResult>('RecalculateResult').implement({
  description: 'One result row re-priced with edited figures; numbers, not the strings of a result row',
  fields: (t) => ({
    rate_bracket_id: t.exposeInt('rate_bracket_id', { description: 'The rate bracket re-priced, as sent' }),
    r_min: t.exposeFloat('r_min', { description: 'Rate per instalment at base_min, percent, full precision' }),
    r_max: t.exposeFloat('r_max', { description: 'Rate per instalment at base_max, percent, full precision' }),
    repayment_min: t.exposeFloat('repayment_min', {
      description: "Each of noi_min instalments at base_min, dollars to the cent, with the product's monthly fee share",
    }),
    repayment_max: t.exposeFloat('repayment_max', {
      description: "Each of noi_max instalments at base_max, dollars to the cent, with the product's monthly fee share",
    }),
    e_min: t.exposeFloat('e_min', {
      description: 'Effective annual rate at base_min on cost less deposit, percent, 4 decimal places',
    }),
    e_max: t.exposeFloat('e_max', {
      description: 'Effective annual rate at base_max on cost less deposit, percent, 4 decimal places',
    }),
  }),
});

export const FinancierOptionRef = builder.objectRef<{ id: number; name: string }>('FinancierOption').implement({
  description: 'A financier a surface can offer for preferred_financier (a picker entry)',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The financier's organisation id, as preferred_financier takes it" }),
    name: t.exposeString('name', { description: "The financier's name; the list sorts on it" }),
  }),
});

// ---------- errors ----------

builder.objectType(RecalculationFailedError, {
  name: 'RecalculationFailedError',
  description: 'Well-formed figures the edited row cannot be re-priced from (REST: 500); nothing else went wrong',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    reason: t.exposeString('reason', {
      description:
        'Why: not_finite (no effective rate solves), invalid_rate, invalid_compounding, invalid_instalments or invalid_amount',
    }),
  }),
});
