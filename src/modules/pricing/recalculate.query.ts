import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RepaymentFrequencyEnum } from '../../graphql/enums.ts';
import { RecalculationFailedError } from './errors.ts';
import { RecalculateResultRef } from './pricing.types.ts';
import { recalculate } from './service.ts';

const RecalculateInput = builder.inputType('RecalculateInput', {
  description: 'An edited result card (REST: POST /calculator/recalculate); every field is required',
  fields: (t) => ({
    rate_bracket_id: t.int({
      required: true,
      description: "The result row's rate bracket (its product's monthly fee is added to the repayments)",
    }),
    base_min: t.float({ required: true, description: 'Edited annual rate for the _min figures, percent, 0 to 1000' }),
    base_max: t.float({ required: true, description: 'Edited annual rate for the _max figures, percent, 0 to 1000' }),
    compounding_freq_value: t.int({
      required: true,
      description: 'Compounding periods per year, 1 to 365: 12 monthly, 4 quarterly, 1 yearly, 52 weekly',
    }),
    pv: t.float({ required: true, description: 'Amount financed, dollars, above 0' }),
    balloon: t.float({ required: true, description: 'Lump sum due with the last instalment, dollars, 0 up to pv' }),
    cost: t.float({
      required: true,
      description: 'Asset cost as given, dollars, above 0 (the effective rate is on cost less deposit)',
    }),
    deposit: t.float({ required: true, description: 'Deposit, dollars, 0 or more and below cost' }),
    noi_min: t.float({
      required: true,
      description: 'Number of instalments for the _min figures, 1 to 36,500 (fractions accepted)',
    }),
    noi_max: t.float({
      required: true,
      description: 'Number of instalments for the _max figures, 1 to 36,500 (fractions accepted)',
    }),
    billing_type: t.string({
      required: false,
      description: 'Required, but may be null: advance; anything else (or null) prices in arrears',
    }),
    repayment_frequency: t.field({
      type: RepaymentFrequencyEnum,
      required: true,
      description: 'How often instalments fall (instalments per year); none prices monthly',
    }),
  }),
});

builder.queryField('recalculate', (t) =>
  t.field({
    type: RecalculateResultRef,
    description:
      'Re-prices one result row with edited figures (a manual override). Any signed-in caller; not metered. RecalculationFailedError: no answer from well-formed figures',
    authScopes: { signedIn: true },
    args: { input: t.arg({ type: RecalculateInput, required: true, description: 'The edited result card' }) },
    errors: { types: [RecalculationFailedError, ValidationError, NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => {
      // Every body field is required; billing_type is "string or null", so null is an answer but
      // leaving it out is not (GraphQL keeps an absent input field absent, unlike an explicit null).
      if (!Object.hasOwn(args.input, 'billing_type'))
        throw ValidationError.of('billing_type', 'This field is required.');
      return recalculate(ctx, callerOf(ctx), { ...args.input, billing_type: args.input.billing_type ?? null });
    },
  }),
);
