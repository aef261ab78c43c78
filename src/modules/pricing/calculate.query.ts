import { builder } from '../../graphql/builder.ts';
import { COMPILED_EXECUTION } from '../../graphql/compiled-execution.ts';
import { callerOf } from '../../graphql/context.ts';
import { RUN_ERRORS } from '../billing/index.ts';
import { DealInput } from '../deal/deal.types.ts';
import { CalculatorResultRef } from './pricing.types.ts';
import { calculate } from './service.ts';

builder.queryField('calculate', (t) =>
  t.field({
    type: CalculatorResultRef,
    description:
      "Prices a deal against every rate card in the caller's book, cheapest first. Metered (calculator allowance) and saved as a recent scenario",
    authScopes: { signedIn: true },
    args: {
      input: t.arg({
        type: DealInput,
        required: true,
        description:
          'The deal: cost, asset_value, term, advance_arrears and repayment_frequency are required; other answers narrow the cards',
      }),
    },
    errors: { types: RUN_ERRORS, directResult: true },
    // Its answer is a long list of engine rows: /graphql runs it compiled (src/graphql/compiled-execution.ts).
    extensions: { [COMPILED_EXECUTION]: true },
    resolve: (_root, args, ctx) => calculate(ctx, callerOf(ctx), args.input),
  }),
);
