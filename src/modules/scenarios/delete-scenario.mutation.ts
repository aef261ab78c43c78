import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ScenarioNotFoundError } from './errors.ts';
import { DeletedScenarioRef } from './scenario.types.ts';
import { deleteScenario } from './service.ts';

builder.mutationField('deleteScenario', (t) =>
  t.field({
    type: DeletedScenarioRef,
    description: "Delete one of the caller's scenarios, recent or saved",
    authScopes: { write: true },
    args: { id: t.arg.int({ required: true, description: "The scenario's id" }) },
    errors: { types: [ScenarioNotFoundError], directResult: true },
    resolve: (_root, args, ctx) => deleteScenario(ctx, callerOf(ctx), args.id),
  }),
);
