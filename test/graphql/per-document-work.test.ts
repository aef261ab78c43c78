/**
 * Work /graphql remembers per parsed document (Yoga reuses a document's AST across requests) must answer exactly as
 * if it were done per request: the cost of an operation that pages by a variable follows each request's variables,
 * a remembered shape follows the catalogue sizes it was costed with, and a refused document stays refused.
 * The request body is bounded once, by MAX_BODY_BYTES (src/http/body-limit.ts); Yoga adds no limit of its own.
 */
import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLARED_SIZES, analyseOperation, operationShape } from '../../src/graphql-server/cost.ts';
import { schema } from '../../src/graphql-server/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { TEST_SCALE } from '../../testkit/sizes.ts';
import { DEAL, messages, post } from './http.ts';

let t: TestApp;
let free: string;
beforeAll(async () => {
  t = await startTestApp();
  free = (await t.login('free.broker@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

function parsed(document: string): {
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
} {
  const { definitions } = parse(document);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
  return { operation: definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode, fragments };
}

const PAGED_BY_VARIABLE = `query Q($input: DealInput!, $n: Int) { calculate(input: $input) {
  ... on CalculatorResult { results { schedule(first: $n) { index payment } } } } }`;
const PAGED_BY_LITERAL = `query Q($input: DealInput!, $n: Int) { calculate(input: $input) {
  ... on CalculatorResult { results { schedule(first: 12) { index payment } } } } }`;

describe('Cost: a remembered operation is costed with each request’s variables', () => {
  it('an operation that pages by a variable is costed anew for every request, in any order', () => {
    const { operation, fragments } = parsed(PAGED_BY_VARIABLE);
    const cost = (n: number) => operationShape(schema, operation, fragments, DECLARED_SIZES, { n }).cost;
    const costs = [cost(1), cost(1000), cost(1), cost(500)];
    expect(costs).toEqual(
      [1, 1000, 1, 500].map((n) => analyseOperation(schema, operation, fragments, DECLARED_SIZES, { n }).cost),
    );
    expect(costs[1]).toBeGreaterThan(costs[0]);
  });

  it('an operation whose sized arguments are literals is walked once per catalogue size, whatever its variables', () => {
    const { operation, fragments } = parsed(PAGED_BY_LITERAL);
    const first = operationShape(schema, operation, fragments, DECLARED_SIZES, { n: 1 });
    expect(operationShape(schema, operation, fragments, DECLARED_SIZES, { n: 1000 })).toBe(first);
    expect(first).toEqual(analyseOperation(schema, operation, fragments, DECLARED_SIZES));
  });

  it('another catalogue size is costed with its own counts', () => {
    const { operation, fragments } = parsed(PAGED_BY_LITERAL);
    const smaller = { ...DECLARED_SIZES, brackets: 10 };
    const declared = operationShape(schema, operation, fragments, DECLARED_SIZES);
    const small = operationShape(schema, operation, fragments, smaller);
    expect(small.cost).toBe(analyseOperation(schema, operation, fragments, smaller).cost);
    expect(small.cost).toBeLessThan(declared.cost);
  });

  it('over HTTP, the same document is refused for a page out of range and answered for a small one, alternately', async () => {
    const statuses: number[] = [];
    for (const n of [1, 5000, 1, 5000]) {
      const reply = await post(t, PAGED_BY_VARIABLE, { input: DEAL, n }, free);
      statuses.push(reply.status);
      if (n === 5000) expect(messages(reply).join(' ')).toMatch(/schedule\(first:\) must be between 0 and 1000/);
      else expect(reply.body.data.calculate).toBeTruthy();
    }
    expect(statuses).toEqual([200, 400, 200, 400]);
  });
});

describe('Limits: a document refused for its shape is refused every time it is sent', () => {
  it('too many aliases: the same 400 and message on every request', async () => {
    const aliases = Array.from({ length: 40 }, (_, k) => `a${k}: __typename`).join(' ');
    const replies = [];
    for (let k = 0; k < 3; k++) replies.push(await post(t, `query { ${aliases} }`));
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(messages(reply)).toEqual(messages(replies[0]));
    }
    expect(messages(replies[0]).join(' ')).toMatch(/aliases .* exceed the limit/);
  });
});

describe('Request body: MAX_BODY_BYTES is the only limit on a /graphql body', () => {
  let big: TestApp;
  // Yoga's own limit is 25 MB: at full size (CI) the body read is over it, under a limit configured just above it. A
  // local run (testkit/sizes.ts) proves the same rule, just under the limit read and just over it 413, a hundredth
  // the size: sending 25 MB is most of this file's time.
  const limit = TEST_SCALE >= 1 ? 25_200_000 : 252_000;
  const justUnder = limit - limit / 250;
  beforeAll(async () => {
    big = await startTestApp({ seed: 'none', config: { maxBodyBytes: limit } });
  });
  afterAll(async () => {
    await big?.close();
  });

  const send = async (padding: number) => {
    const res = await fetch(`${big.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }', extensions: { pad: 'x'.repeat(padding) } }),
    });
    return { status: res.status, body: await res.json() };
  };

  const overYoga = limit > 25_000_000 ? ', over Yoga’s own 25 MB limit (off)' : '';
  it(`a body just under the limit (${justUnder} of ${limit} bytes) is read and answered${overYoga}`, async () => {
    expect(await send(justUnder)).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  }, 180_000);

  it('a body over the limit is still 413 from the body reader', async () => {
    const reply = await send(limit);
    expect(reply.status).toBe(413);
    expect(reply.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
