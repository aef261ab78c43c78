import { builder } from '../../graphql/builder.ts';
import { ScenarioKindEnum } from '../../graphql/enums.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { NameRequiredError, OverLimitError, ScenarioNotFoundError } from './errors.ts';
import { readSummary, type ScenarioSummary } from './summary.ts';

const NamedRef = builder.objectRef<{ id: number; name: string }>('ScenarioNamed').implement({
  description: 'An id and the name it had at the time of the run',
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }),
});

const CheapestResultRef = builder
  .objectRef<NonNullable<ScenarioSummary['cheapest']>>('ScenarioCheapestResult')
  .implement({
    description: 'The cheapest result the run showed',
    fields: (t) => ({
      financier: t.field({ type: NamedRef, resolve: (c) => c.financier }),
      product: t.field({ type: NamedRef, resolve: (c) => c.product }),
      rate_bracket_id: t.exposeInt('rate_bracket_id'),
      repayment: t.exposeString('repayment', {
        description: "The card's lowest repayment per instalment (repayment_min)",
      }),
      repayment_frequency: t.exposeString('repayment_frequency'),
    }),
  });

export const ScenarioSummaryRef = builder.objectRef<ScenarioSummary>('ScenarioSummary').implement({
  description: 'Written when the run is recorded and never recomputed; null on scenarios recorded before summaries',
  fields: (t) => ({
    asset: t.field({ type: NamedRef, resolve: (s) => s.asset }),
    amount: t.exposeString('amount', { description: 'The asset cost as entered, to the cent' }),
    term: t.exposeInt('term', { nullable: true, description: 'Months' }),
    cheapest: t.field({
      type: CheapestResultRef,
      nullable: true,
      description: 'null when the run priced nothing (an Approval Matrix run, or no card priced)',
      resolve: (s) => s.cheapest,
    }),
  }),
});

export const ScenarioRef = builder.prismaObject('Scenario', {
  description: 'A saved or recent calculator scenario of the caller',
  fields: (t) => ({
    id: t.exposeInt('id'),
    tool: t.exposeString('tool', { description: 'The tool that produced it, e.g. calculator' }),
    kind: t.expose('kind', { type: ScenarioKindEnum }),
    name: t.exposeString('name', { nullable: true, description: 'Set when saved; null on a recent scenario' }),
    request: t.expose('request', { type: 'JSON', description: 'The request the tool ran' }),
    summary: t.field({
      type: ScenarioSummaryRef,
      nullable: true,
      description: 'What a list shows: asset, amount, term and the cheapest result at the time of the run',
      resolve: (scenario) => readSummary(scenario.summary),
    }),
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
