/**
 * Keeping a priced deal: a calculator run is a recent scenario (its scenario_id); saving it keeps it by name. A saved
 * scenario answers with the same fields as GraphQL's Scenario, its figures now included (docs/scenarios.md
 * "Re-pricing saved scenarios").
 */
import { defineTool, type ToolResult } from './define-tool.ts';

/** The Scenario fields an assistant gets: what was saved, and the figures of its last re-pricing. */
const SCENARIO_FIELDS = `id name tool created_at
  summary { asset { id name } amount term
            cheapest { financier { id name } product { id name } rate_bracket_id repayment repayment_frequency } }
  current_cheapest { organisation_id organisation_name approval_id rate repayment }
  saved_cheapest_stands repayment_change repriced_at repriced_version`;

function scenarioAnswer(s: ToolResult | Record<string, any>) {
  return {
    id: s.id,
    name: s.name,
    tool: s.tool,
    created_at: s.created_at,
    summary: s.summary,
    current_cheapest: s.current_cheapest,
    saved_cheapest_stands: s.saved_cheapest_stands,
    repayment_change: s.repayment_change,
    repriced_at: s.repriced_at,
    repriced_version: s.repriced_version,
  };
}

export const saveScenario = defineTool({
  name: 'save_scenario',
  title: 'Save a calculator scenario',
  description:
    'Saves a run_calculator result for the user under a name (id: the scenario_id of that result), so it stays in their ' +
    "saved scenarios instead of ageing out of the recent ones. Needs a read_write token; the user's plan bounds how " +
    'many saved scenarios they keep. Returns the saved scenario (its re-pricing fields are null until a catalogue ' +
    'change re-prices it; list_saved_scenarios shows them).',
  document: `mutation McpSaveScenario($id: Int!, $name: String!) {
    promoteScenario(id: $id, name: $name) {
      __typename ... on Scenario { ${SCENARIO_FIELDS} } ...ErrorFields } }`,
  write: true,
  arguments: {
    id: 'The scenario_id a run_calculator result returned',
    name: 'A name the user will recognise',
  },
  answer: (r) => ({ scenario: scenarioAnswer(r) }),
});

export const listSavedScenarios = defineTool({
  name: 'list_saved_scenarios',
  title: "List the user's saved scenarios with their figures now",
  description:
    "Lists the user's saved scenarios, newest first (optionally one tool's: calculator, matrix, matrix_calculator). " +
    'Returns each with its saved figures (summary.cheapest) and, after a rate card, approval or asset mapping ' +
    'changed, its figures now: current_cheapest (the cheapest row the user would be shown now), ' +
    'saved_cheapest_stands (whether the saved row is still offered), repayment_change (now minus saved, signed ' +
    'dollars), repriced_at and repriced_version (when, and against which catalogue version). Not metered.',
  document: `query McpSavedScenarios($tool: ScenarioTool) {
    scenarios(kind: saved, tool: $tool) {
      __typename ... on QueryScenariosSuccess { data { ${SCENARIO_FIELDS} } } ...ErrorFields } }`,
  write: false,
  arguments: { tool: "Only this tool's saved scenarios (default: every tool's)" },
  answer: (r) => ({ scenarios: (r.data as Record<string, any>[]).map(scenarioAnswer) }),
});
