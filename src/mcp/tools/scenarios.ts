/** Keeping a priced deal: a calculator run is a recent scenario (its scenario_id); saving it keeps it by name. */
import { defineTool } from './define-tool.ts';

export const saveScenario = defineTool({
  name: 'save_scenario',
  title: 'Save a calculator scenario',
  description:
    'Saves a run_calculator result for the user under a name (id: the scenario_id of that result), so it stays in their ' +
    "saved scenarios instead of ageing out of the recent ones. Needs a read_write token; the user's plan bounds how " +
    'many saved scenarios they keep.',
  document: `mutation McpSaveScenario($id: Int!, $name: String!) {
    promoteScenario(id: $id, name: $name) {
      __typename ... on Scenario { id name tool created_at } ...ErrorFields } }`,
  write: true,
  arguments: {
    id: 'The scenario_id a run_calculator result returned',
    name: 'A name the user will recognise',
  },
  answer: (r) => ({ scenario: { id: r.id, name: r.name, tool: r.tool, created_at: r.created_at } }),
});
