import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { SurfaceEnum } from '../../graphql/enums.ts';
import { SURFACES, isOneOf } from '../../lib/vocabulary.ts';
import { FinancierOptionRef } from './pricing.types.ts';
import { financierOptions } from './service.ts';

builder.queryField('financiers', (t) =>
  t.field({
    type: [FinancierOptionRef],
    description:
      'Options for preferred_financier on a surface, sorted by name; empty when the caller cannot run the surface',
    authScopes: { signedIn: true },
    args: {
      surface: t.arg({
        type: SurfaceEnum,
        description: 'calculator (default; any unknown value), consumer_calculator, matrix, matrix_calculator',
      }),
    },
    errors: { dataField: { description: 'The financiers the caller can choose on that surface' } },
    resolve: (_root, args, ctx) => {
      const surface = isOneOf(SURFACES, args.surface) ? args.surface : 'calculator';
      return financierOptions(ctx, callerOf(ctx), surface);
    },
  }),
);
