import { builder } from '../../graphql/builder.ts';
import { RepaymentFrequencyEnum, ScenarioKindEnum, ScenarioToolEnum } from '../../graphql/enums.ts';
import type { ScenarioTool } from '../../lib/vocabulary.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { NameRequiredError, OverLimitError, ScenarioNotFoundError } from './errors.ts';
import { readSummary, type ScenarioSummary } from './summary.ts';
import { readCurrent, type CurrentCheapest } from './current.ts';

const NamedRef = builder.objectRef<{ id: number; name: string }>('ScenarioNamed').implement({
  description: 'An id and the name it had at the time of the run',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Its id' }),
    name: t.exposeString('name', { description: 'Its name when the run was recorded' }),
  }),
});

const CheapestResultRef = builder
  .objectRef<NonNullable<ScenarioSummary['cheapest']>>('ScenarioCheapestResult')
  .implement({
    description: 'The cheapest result the run showed',
    fields: (t) => ({
      financier: t.field({ type: NamedRef, description: 'The financier', resolve: (c) => c.financier }),
      product: t.field({ type: NamedRef, description: 'Its product', resolve: (c) => c.product }),
      rate_bracket_id: t.exposeInt('rate_bracket_id', { description: 'The rate bracket it was priced from' }),
      repayment: t.exposeString('repayment', {
        description: "The card's lowest repayment per instalment (repayment_min)",
      }),
      repayment_frequency: t.expose('repayment_frequency', {
        type: RepaymentFrequencyEnum,
        description: 'How often that repayment falls due',
      }),
    }),
  });

const ScenarioSummaryRef = builder.objectRef<ScenarioSummary>('ScenarioSummary').implement({
  description: 'Written when the run is recorded and never recomputed; null on scenarios recorded before summaries',
  fields: (t) => ({
    asset: t.field({ type: NamedRef, description: 'The asset priced', resolve: (s) => s.asset }),
    amount: t.exposeString('amount', {
      description: 'The asset cost as entered, dollars to the cent (e.g. "55000.00")',
    }),
    term: t.exposeInt('term', { nullable: true, description: 'Months; null when the run had none' }),
    cheapest: t.field({
      type: CheapestResultRef,
      nullable: true,
      description: 'null when the run priced nothing (an Approval Matrix run, or no card priced)',
      resolve: (s) => s.cheapest,
    }),
  }),
});

const CurrentCheapestRef = builder.objectRef<CurrentCheapest>('ScenarioCurrentCheapest').implement({
  description: "The cheapest row the scenario's owner would be shown now, as of its last re-pricing",
  fields: (t) => ({
    organisation_id: t.exposeInt('organisation_id', { description: 'The financier' }),
    organisation_name: t.exposeString('organisation_name', { description: "The financier's name at re-pricing" }),
    approval_id: t.exposeInt('approval_id', {
      nullable: true,
      description: 'The approval the row passes (Matrix Calculator); null for a Calculator scenario',
    }),
    rate: t.exposeString('rate', { description: 'The effective rate, percent a year (e_min)' }),
    repayment: t.exposeString('repayment', {
      description: "The card's lowest repayment per instalment (repayment_min), dollars to the cent",
    }),
  }),
});

export const ScenarioRef = builder.prismaObject('Scenario', {
  description: 'A run of the calculator, Matrix or Matrix Calculator, kept for its user only (recent or saved)',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The scenario's id" }),
    tool: t.field({
      type: ScenarioToolEnum,
      description: 'The tool that produced it',
      select: { tool: true },
      // Stored as text; only record_run writes it, with the tool's name.
      resolve: (scenario) => scenario.tool as ScenarioTool,
    }),
    kind: t.expose('kind', { type: ScenarioKindEnum, description: 'Recent (kept automatically) or saved' }),
    name: t.exposeString('name', { nullable: true, description: 'Set when saved; null on a recent scenario' }),
    request: t.expose('request', { type: 'JSON', description: 'The request the tool ran' }),
    summary: t.field({
      type: ScenarioSummaryRef,
      nullable: true,
      description: 'What a list shows: asset, amount, term and the cheapest result at the time of the run',
      resolve: (scenario) => readSummary(scenario.summary),
    }),
    current_cheapest: t.field({
      type: CurrentCheapestRef,
      nullable: true,
      select: { current: true },
      description:
        'Saved Calculator and Matrix Calculator scenarios: the cheapest row now, as the owner would see it at the last ' +
        're-pricing (null before any re-pricing, or when nothing prices the deal now)',
      resolve: (scenario) => readCurrent(scenario.current)?.cheapest ?? null,
    }),
    saved_cheapest_stands: t.boolean({
      nullable: true,
      select: { current: true },
      description:
        'Whether the saved cheapest row (its rate bracket) is still offered for the deal at the last re-pricing; null before any re-pricing or when the run priced nothing',
      resolve: (scenario) => readCurrent(scenario.current)?.saved_cheapest_stands ?? null,
    }),
    repayment_change: t.string({
      nullable: true,
      select: { current: true },
      description:
        'The cheapest repayment now minus the saved one, signed dollars ("-12.40", "+3.00", "0.00"); null before any re-pricing or when either is missing',
      resolve: (scenario) => readCurrent(scenario.current)?.repayment_change ?? null,
    }),
    repriced_at: t.expose('repriced_at', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was last re-priced after a catalogue change; null if never',
    }),
    repriced_version: t.field({
      type: 'String',
      nullable: true,
      select: { repriced_version: true },
      description: 'The catalogue version it was last re-priced against (a decimal string); null if never',
      resolve: (scenario) => scenario.repriced_version?.toString() ?? null,
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the run happened' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'Its last change (promoted or renamed)' }),
  }),
});

export const DeletedScenarioRef = builder.objectRef<{ id: number }>('DeletedScenario').implement({
  description: 'The answer to deleteScenario',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The id of the scenario that was deleted' }) }),
});

// ---------- errors ----------

builder.objectType(NameRequiredError, {
  name: 'NameRequiredError',
  description: 'A saved scenario needs a name, and none (or a blank one) was sent (REST 400 name_required)',
  interfaces: [ErrorInterface],
});
builder.objectType(ScenarioNotFoundError, {
  name: 'ScenarioNotFoundError',
  description: "No such scenario of the caller's (another user's answers the same) (REST 404 not_found)",
  interfaces: [ErrorInterface],
});
builder.objectType(OverLimitError, {
  name: 'OverLimitError',
  description: 'The tool already keeps as many saved scenarios as the caller may (REST 409 over_limit)',
  interfaces: [ErrorInterface],
  fields: (t) => ({ limit: t.exposeInt('limit', { description: 'Saved scenarios the caller may keep per tool' }) }),
});
