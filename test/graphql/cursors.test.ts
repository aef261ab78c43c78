/**
 * Connection cursors are opaque: whatever a caller puts in `after` / `before` (garbage, a forged cursor naming a
 * string, a huge number or a float where the list pages by integer id) is a 400 or a typed error naming the
 * argument, never an unexpected (masked) error, and never reaches the database as a bad query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let broker: string;
let financier: string;
beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const FORGED = [
  'garbage',
  b64('GPC:S:abc'),
  b64('GPC:N:1e400'),
  b64('GPC:N:99999999999'),
  b64('GPC:N:1.5'),
  b64('GPC:N:-1'),
  b64('GPC:D:12'),
  b64('GPC:J:{"a":1}'),
  b64('GPC:'),
];

/** A page of `field` that makes its resolver run (a selection of `__typename` alone would not). */
const page = (field: string, connection: string, wrapped = false) =>
  `${field}(first: 2, after: $cursor) { __typename ... on ${wrapped ? `${connection}Success { data {` : `${connection}Connection {`} edges { cursor } } ${wrapped ? '}' : ''} }`;

/** Every connection field a caller can page, with the token that may read it. */
const CONNECTIONS: [string, () => string, string][] = [
  ['assets', () => broker, page('assets', 'QueryAssets')],
  ['approvals', () => broker, page('approvals', 'QueryApprovals', true)],
  ['products', () => financier, page('products', 'QueryProducts')],
  ['rateBrackets', () => financier, page('rateBrackets', 'QueryRateBrackets')],
  ['rateCardVersions', () => financier, page('rateCardVersions', 'QueryRateCardVersions')],
  ['organisationUsers', () => broker, page('organisationUsers', 'QueryOrganisationUsers')],
  ['mcpConnections', () => broker, page('mcpConnections', 'QueryMcpConnections', true)],
  ['notificationOutbox', () => broker, page('notificationOutbox', 'QueryNotificationOutbox', true)],
  ['issueReports', () => financier, page('issueReports', 'QueryIssueReports')],
];

describe('A forged connection cursor is refused, never an unexpected error', () => {
  for (const [name, token, selection] of CONNECTIONS) {
    it.each(FORGED)(`${name}(after: %s)`, async (cursor) => {
      const res = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` },
        body: JSON.stringify({ query: `query($cursor: String) { ${selection} }`, variables: { cursor } }),
      });
      expect(res.status).toBeLessThan(500);
      const body = await res.json();
      const messages = (body.errors ?? []).map((e: { message: string }) => e.message).join(' | ');
      expect(messages).not.toMatch(/unexpected/i);
      // Either refused outright, or answered as a typed error result.
      const typename = body.data?.[name]?.__typename as string | undefined;
      expect(body.errors?.length > 0 || /Error$/.test(typename ?? '')).toBe(true);
    });
  }
});
