import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { NameRequiredError, OverLimitError, ScenarioNotFoundError } from './errors.ts';
import { ScenarioRef } from './scenario.types.ts';
import { promoteScenario } from './service.ts';

builder.mutationField('promoteScenario', (t) =>
  t.field({
    type: ScenarioRef,
    description:
      "Promote one of the caller's recent scenarios to a saved one, with a name (POST /calculator/scenarios/{id}/promote)",
    authScopes: { write: true },
    args: {
      id: t.arg.int({ required: true, description: "The recent scenario's id" }),
      name: t.arg.string({
        description: 'Required; surrounding whitespace is trimmed; blank answers NameRequiredError',
      }),
    },
    errors: { types: [NameRequiredError, ScenarioNotFoundError, OverLimitError, ValidationError], directResult: true },
    resolve: (_root, args, ctx) => promoteScenario(ctx, callerOf(ctx), args.id, args.name),
  }),
);
