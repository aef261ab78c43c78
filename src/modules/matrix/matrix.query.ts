import { builder } from '../../graphql/builder.ts';
import { COMPILED_EXECUTION } from '../../graphql/compiled-execution.ts';
import { callerOf } from '../../graphql/context.ts';
import { RUN_ERRORS } from '../billing/index.ts';
import { DealInput } from '../deal/deal.types.ts';
import { MatrixResultRef } from './matrix.types.ts';
import { runMatrix } from './service.ts';

builder.queryField('matrix', (t) =>
  t.field({
    type: MatrixResultRef,
    description:
      "The Approval Matrix: every financier's approvals the deal is not ruled out of, grouped by financier. Needs the matrix.enabled entitlement (Pro and above) and the matrix surface available; metered (Matrix allowance)",
    authScopes: { signedIn: true },
    args: {
      input: t.arg({
        type: DealInput,
        required: true,
        description:
          'The deal: only cost and asset_value are required; every other answer is tested against the criteria',
      }),
    },
    errors: { types: RUN_ERRORS, directResult: true },
    // Its answer is a long list of engine rows: /graphql runs it compiled (src/graphql/compiled-execution.ts).
    extensions: { [COMPILED_EXECUTION]: true },
    resolve: (_root, args, ctx) => runMatrix(ctx, callerOf(ctx), args.input),
  }),
);
