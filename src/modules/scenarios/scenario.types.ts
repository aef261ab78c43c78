import { builder } from '../../graphql/builder.ts';
import { ScenarioKindEnum } from '../../graphql/enums.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { NameRequiredError, OverLimitError, ScenarioNotFoundError } from './errors.ts';

export const ScenarioRef = builder.prismaObject('Scenario', {
  description: 'A saved or recent calculator scenario of the caller',
  fields: (t) => ({
    id: t.exposeInt('id'),
    tool: t.exposeString('tool', { description: 'The tool that produced it, e.g. calculator' }),
    kind: t.expose('kind', { type: ScenarioKindEnum }),
    name: t.exposeString('name', { nullable: true, description: 'Set when saved; null on a recent scenario' }),
    request: t.expose('request', { type: 'JSON', description: 'The request the tool ran' }),
    summary: t.expose('summary', { type: 'JSON', nullable: true, description: 'What the tool answered, condensed' }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

export const DeletedScenarioRef = builder.objectRef<{ id: number }>('DeletedScenario').implement({
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The id of the scenario that was deleted' }) }),
});

// ---------- errors ----------

builder.objectType(NameRequiredError, { name: 'NameRequiredError', interfaces: [ErrorInterface] });
builder.objectType(ScenarioNotFoundError, { name: 'ScenarioNotFoundError', interfaces: [ErrorInterface] });
builder.objectType(OverLimitError, {
  name: 'OverLimitError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ limit: t.exposeInt('limit', { description: 'Saved scenarios the caller may keep per tool' }) }),
});
