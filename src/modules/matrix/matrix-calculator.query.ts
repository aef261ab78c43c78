import { builder } from '../../graphql/builder.ts';
import { COMPILED_EXECUTION } from '../../graphql/compiled-execution.ts';
import { callerOf } from '../../graphql/context.ts';
import { RUN_ERRORS } from '../billing/index.ts';
import { DealInput } from '../deal/deal.types.ts';
import { MatrixCalculatorResultRef } from './matrix.types.ts';
import { runMatrixCalculator } from './service.ts';

builder.queryField('matrixCalculator', (t) =>
  t.field({
    type: MatrixCalculatorResultRef,
    description:
      'Both engines on one deal, joined on rate brackets: each row a financier that can price and approve it. Needs the matrix.enabled entitlement and the matrix_calculator surface available; metered on both allowances; Free-tier rows past the cheapest three are masked',
    authScopes: { signedIn: true },
    args: {
      input: t.arg({
        type: DealInput,
        required: true,
        description:
          'The deal: cost, asset_value, term, advance_arrears and repayment_frequency are required; type commercial only',
      }),
    },
    errors: { types: RUN_ERRORS, directResult: true },
    // Its answer is a long list of engine rows: /graphql runs it compiled (src/graphql/compiled-execution.ts).
    extensions: { [COMPILED_EXECUTION]: true },
    resolve: (_root, args, ctx) => runMatrixCalculator(ctx, callerOf(ctx), args.input),
  }),
);
