import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ScenarioKindEnum, ScenarioToolEnum } from '../../graphql/enums.ts';
import { ScenarioRef } from './scenario.types.ts';
import { SCENARIOS_LISTED_MAX, listScenarios } from './service.ts';

builder.queryField('scenarios', (t) =>
  t.field({
    type: [ScenarioRef],
    description: "The caller's scenarios, newest first; optionally of one kind and one tool",
    authScopes: { signedIn: true },
    args: {
      kind: t.arg({ type: ScenarioKindEnum, description: 'Only this kind (default: both)' }),
      tool: t.arg({ type: ScenarioToolEnum, description: "Only this tool's (default: every tool's)" }),
    },
    errors: { dataField: { description: 'The scenarios', extensions: { listSize: SCENARIOS_LISTED_MAX } } },
    resolve: (_root, args, ctx) => listScenarios(ctx, callerOf(ctx), { kind: args.kind, tool: args.tool }),
  }),
);
