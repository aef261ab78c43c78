/**
 * POST /calculator/scenarios/{id}/promote: recent -> saved (spec States: Scenario; Errors table).
 * The name travels in the JSON body: `{ "name": "..." }` (docs/scenarios.md).
 * Scenario ids are opaque to the client: a path id that is not a plain integer is sent as -1, which no scenario has,
 * so it answers 404 not_found exactly like a missing one (never a 400 about the path).
 */
import { body, defineRoute } from '../../define-route.ts';

const scenarioId = (value: unknown): number => (/^\d{1,9}$/.test(String(value)) ? Number(value) : -1);

export default defineRoute({
  method: 'post',
  path: '/calculator/scenarios/:id/promote',
  document: `mutation RestPromoteScenario($id: Int!, $name: String) {
    promoteScenario(id: $id, name: $name) {
      __typename ... on Scenario { id }
      ... on OverLimitError { limit }
      ...ErrorFields } }`,
  variables: (req) => ({ id: scenarioId(req.params.id), name: body(req).name ?? null }),
  respond: (r) => {
    switch (r.__typename) {
      case 'Scenario':
        return [200, {}];
      case 'NameRequiredError':
        return [400, { error: 'name_required' }];
      case 'ScenarioNotFoundError':
        return [404, { error: 'not_found' }];
      case 'OverLimitError':
        return [409, { error: 'over_limit', message: r.message, limit: r.limit }];
      default:
        return undefined; // 401, 403 and a too-long name's 400: the bridge's shared bodies
    }
  },
});
