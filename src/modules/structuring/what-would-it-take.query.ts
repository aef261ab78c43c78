import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { DocLevelEnum } from '../../graphql/enums.ts';
import { RUN_ERRORS } from '../billing/index.ts';
import { DealInput } from '../deal/deal.types.ts';
import { whatWouldItTake } from './service.ts';
import { StructuringBoundsInput, StructuringRankByEnum, WhatWouldItTakeResultRef } from './structuring.types.ts';

builder.queryField('whatWouldItTake', (t) =>
  t.field({
    type: WhatWouldItTakeResultRef,
    description:
      'For every approval in scope the deal does not get: what blocks it and the smallest change (deposit, term, balloon, waiting) that makes it confirmed, priced by the same financier. Needs the matrix.enabled entitlement; metered as one Matrix run; Free-tier figures past the cheapest three are masked',
    authScopes: { signedIn: true },
    args: {
      input: t.arg({ type: DealInput, required: true, description: 'The deal, as the Matrix Calculator takes it' }),
      bounds: t.arg({ type: StructuringBoundsInput, description: "The broker's bounds on the levers" }),
      rankBy: t.arg({ type: StructuringRankByEnum, description: 'How the cheapest reachable change is ranked' }),
      docLevels: t.arg({ type: [DocLevelEnum], description: 'Only approvals at these doc levels' }),
      organisationIds: t.arg.intList({ description: 'Only these financiers' }),
    },
    errors: { types: RUN_ERRORS, directResult: true },
    resolve: (_root, args, ctx) =>
      whatWouldItTake(ctx, callerOf(ctx), {
        deal: args.input,
        bounds: args.bounds,
        rank_by: args.rankBy,
        doc_levels: args.docLevels,
        organisation_ids: args.organisationIds,
      }),
  }),
);
