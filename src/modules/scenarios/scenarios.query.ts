import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ScenarioKindEnum } from '../../graphql/enums.ts';
import { ScenarioRef } from './scenario.types.ts';
import { listScenarios } from './service.ts';

builder.queryField('scenarios', (t) =>
  t.field({
    type: [ScenarioRef],
    description: "The caller's scenarios, newest first; optionally of one kind and one tool",
    authScopes: { signedIn: true },
    args: { kind: t.arg({ type: ScenarioKindEnum }), tool: t.arg.string() },
    errors: {},
    resolve: (_root, args, ctx) => listScenarios(ctx, callerOf(ctx), { kind: args.kind, tool: args.tool }),
  }),
);
