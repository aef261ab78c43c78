import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { FinancierOptionRef } from './pricing.types.ts';
import { financierOptions, type FinancierSurface } from './service.ts';

const SURFACES: FinancierSurface[] = ['calculator', 'consumer_calculator', 'matrix', 'matrix_calculator'];

builder.queryField('financiers', (t) =>
  t.field({
    type: [FinancierOptionRef],
    description: 'Options for preferred_financier on a surface, sorted by name; empty when the caller cannot run the surface',
    authScopes: { signedIn: true },
    args: { surface: t.arg.string({ description: 'calculator (default; any unknown value), consumer_calculator, matrix, matrix_calculator' }) },
    errors: {},
    resolve: (_root, args, ctx) => {
      const surface = SURFACES.includes(args.surface as FinancierSurface) ? (args.surface as FinancierSurface) : 'calculator';
      return financierOptions(ctx, callerOf(ctx), surface);
    },
  }),
);
