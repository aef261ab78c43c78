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
    rate_bracket_id: t.int({ required: true }),
    base_min: t.float({ required: true }),
    base_max: t.float({ required: true }),
    compounding_freq_value: t.int({ required: true }),
    pv: t.float({ required: true }),
    balloon: t.float({ required: true }),
    cost: t.float({ required: true }),
    deposit: t.float({ required: true }),
    noi_min: t.float({ required: true }),
    noi_max: t.float({ required: true }),
    billing_type: t.string({
      required: false,
      description: 'Required, but may be null: advance; anything else (or null) prices in arrears',
    }),
    repayment_frequency: t.field({ type: RepaymentFrequencyEnum, required: true }),
  }),
});

builder.queryField('recalculate', (t) =>
  t.field({
    type: RecalculateResultRef,
    description: 'Re-prices one result row with edited figures',
    authScopes: { signedIn: true },
    args: { input: t.arg({ type: RecalculateInput, required: true }) },
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
