import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { RUN_ERRORS } from '../billing/errors.ts';
import { DealInput } from '../deal/deal.types.ts';
import { MatrixCalculatorResultRef } from './matrix.types.ts';
import { runMatrixCalculator } from './service.ts';

builder.queryField('matrixCalculator', (t) =>
  t.field({
    type: MatrixCalculatorResultRef,
    description:
      'Both engines on one deal, joined on rate brackets: each row a financier that can price and approve it. Metered on both allowances',
    authScopes: { signedIn: true },
    args: { input: t.arg({ type: DealInput, required: true }) },
    errors: { types: RUN_ERRORS, directResult: true },
    resolve: (_root, args, ctx) => runMatrixCalculator(ctx, callerOf(ctx), args.input),
  }),
);
