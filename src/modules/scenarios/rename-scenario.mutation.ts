import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { NameRequiredError, ScenarioNotFoundError } from './errors.ts';
import { ScenarioRef } from './scenario.types.ts';
import { renameScenario } from './service.ts';

builder.mutationField('renameScenario', (t) =>
  t.field({
    type: ScenarioRef,
    description: "Rename one of the caller's saved scenarios",
    authScopes: { write: true },
    args: {
      id: t.arg.int({ required: true, description: "The saved scenario's id" }),
      name: t.arg.string({ description: 'The new name; required, trimmed; blank answers NameRequiredError' }),
    },
    errors: { types: [NameRequiredError, ScenarioNotFoundError, ValidationError], directResult: true },
    resolve: (_root, args, ctx) => renameScenario(ctx, callerOf(ctx), args.id, args.name),
  }),
);
