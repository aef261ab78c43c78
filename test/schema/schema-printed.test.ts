/** schema.graphql is printed from the code (npm run schema:print) and never edited by hand. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printedSchema, schema } from '../../src/graphql-server/schema.ts';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema:print` after changing the schema)', () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../schema.graphql'), 'utf8');
    expect(committed === printedSchema(), 'schema.graphql is stale: run npm run schema:print').toBe(true);
  });
});

describe('No type is read as a root it is not', () => {
  it('the schema has no subscription root and no type named Subscription (the billing one is BillingSubscription)', () => {
    expect(schema.getSubscriptionType()).toBeFalsy();
    expect(schema.getType('Subscription')).toBeUndefined();
    expect(schema.getType('BillingSubscription')).toBeDefined();
  });
});
