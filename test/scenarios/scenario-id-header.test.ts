/**
 * Spec: States "Scenario" (a run's recent scenario becomes saved through promote); the Matrix bodies carry no id, so a
 * REST client reads it from the `X-Scenario-Id` response header (docs/api-decisions.md "The recent scenario of a
 * run"), exposed to browsers through CORS. Each run below is promoted with the id it answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

const ORIGIN = 'https://dashboard.example.com';
let t: TestApp;
let broker: string; // broker.admin@demo.test (Pro)

beforeAll(async () => {
  t = await startTestApp({ config: { corsAllowedOrigins: [ORIGIN] } });
  broker = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const run = (path: string) => t.rest('POST', path, { token: broker, body: DEMO_DEAL, headers: { origin: ORIGIN } });
const scenarioOf = (res: { headers: Headers }) => Number(res.headers.get('x-scenario-id'));
const stored = (id: number) => t.database.prisma.scenario.findUniqueOrThrow({ where: { id } });

describe('X-Scenario-Id: every metered run answers the recent scenario it was saved as', () => {
  it.each([
    ['/api/v1/matrix/', 'matrix'],
    ['/api/v1/matrix-calculator/', 'matrix_calculator'],
    ['/api/v1/calculator', 'calculator'],
  ])('POST %s: the header names the recent of that tool, the body is unchanged', async (path, tool) => {
    const res = await run(path);
    expect(res.status).toBe(200);
    const id = scenarioOf(res);
    expect(Number.isInteger(id) && id > 0).toBe(true);
    expect(await stored(id)).toMatchObject({ kind: 'recent', tool });
    if (tool === 'calculator') expect(res.body.scenario_id).toBe(id);
    else expect(res.body).not.toHaveProperty('scenario_id');
  });

  it('a browser on an allowed origin may read it (Access-Control-Expose-Headers)', async () => {
    const res = await run('/api/v1/matrix/');
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toContain('X-Scenario-Id');
  });
});

describe('A REST-only client promotes a Matrix and a Matrix Calculator run', () => {
  it('Matrix: run, read the header, promote over REST: saved under the name', async () => {
    const id = scenarioOf(await run('/api/v1/matrix/'));
    const promoted = await t.rest('POST', `/api/v1/calculator/scenarios/${id}/promote`, {
      token: broker,
      body: { name: 'Matrix, excavator' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({});
    expect(await stored(id)).toMatchObject({ kind: 'saved', name: 'Matrix, excavator', tool: 'matrix' });
  });

  it('Matrix Calculator: run over REST, promote with the header id (REST and GraphQL agree on it)', async () => {
    const id = scenarioOf(await run('/api/v1/matrix-calculator/'));
    const promoted = await t
      .graphql(broker)
      .request<{ promoteScenario: { __typename: string; id?: number } }>(
        'mutation($id: Int!) { promoteScenario(id: $id, name: "Matrix Calculator, excavator") { __typename ... on Scenario { id } } }',
        { id },
      );
    expect(promoted.promoteScenario).toEqual({ __typename: 'Scenario', id });
    expect(await stored(id)).toMatchObject({ kind: 'saved', tool: 'matrix_calculator' });

    const graphql = await t
      .graphql(broker)
      .request<{ matrix: { scenario_id: number } }>(
        'query($input: DealInput!) { matrix(input: $input) { __typename ... on MatrixResult { scenario_id } } }',
        { input: DEMO_DEAL },
      );
    expect(await stored(graphql.matrix.scenario_id)).toMatchObject({ kind: 'recent', tool: 'matrix' });
  });
});
