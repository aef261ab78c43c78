/**
 * The migration that made the spec's non-nullable fields NOT NULL (prisma/migrations/*_contract_types_not_null) turns
 * the nulls already stored into what they meant (docs/api-decisions.md "Types as the spec writes them", docs/auth.md
 * "API tokens"): a database migrated up to the migration before it, holding such rows, is migrated the rest of the way.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, listMigrations, MIGRATIONS_DIR, type SqlRunner } from '../../src/lib/migrations.ts';
import { pgliteCopy } from '../../testkit/databases.ts';

const THIS_MIGRATION = listMigrations().find((m) => m.name.endsWith('_contract_types_not_null'))!.name;

let pglite: PGlite;
let before: string;

const runner = (): SqlRunner => ({
  exec: async (sql) => {
    await pglite.exec(sql);
  },
  query: async (sql, params) => (await pglite.query(sql, params)).rows as Record<string, unknown>[],
  transaction: (fn) =>
    pglite.transaction((tx) =>
      fn({
        exec: async (sql) => {
          await tx.exec(sql);
        },
        query: async (sql, params) => (await tx.query(sql, params)).rows as Record<string, unknown>[],
      }),
    ),
});
const rows = async (sql: string) => (await pglite.query(sql)).rows as Record<string, unknown>[];

beforeAll(async () => {
  // The migrations that came before this one, alone in a directory of their own.
  before = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
  for (const m of listMigrations().filter((m) => m.name < THIS_MIGRATION))
    cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(before, m.name), { recursive: true });
  pglite = await pgliteCopy('empty');
  await applyMigrations(runner(), before);
  await pglite.exec(`
    INSERT INTO organisations (id, name, type) VALUES (1, 'Lender', 'f');
    INSERT INTO users (id, email, password_hash, organisation_id) VALUES (1, 'owner@example.test', 'x', 1);
    INSERT INTO products (id, product_name, organisation_id) VALUES (1, 'Unsaid', 1);
    INSERT INTO products (id, product_name, organisation_id, compounding_frequency, doc_fee_financed, private_sale,
      sale_hire_back, home_owner) VALUES (2, 'Said', 1, 'q', 'no', 'yes', 'no', 'yes');
    INSERT INTO approvals (id, name, doc_level, organisation_id) VALUES (1, 'Unchecked', 'low_doc', 1);
    INSERT INTO approvals (id, name, doc_level, organisation_id, asset_state) VALUES (2, 'Used only', 'low_doc', 1, 'used');
    INSERT INTO api_tokens (id, user_id, name, token_id, secret_hash, last_four, scope, environment, created_at, expires_at)
    VALUES (1, 1, 'never', 'a', 'h', 'aaaa', 'read', 'local', '2026-01-10T00:00:00Z', NULL),
           (2, 1, 'far', 'b', 'h', 'bbbb', 'read', 'local', '2026-01-10T00:00:00Z', '2031-01-01T00:00:00Z'),
           (3, 1, 'month', 'c', 'h', 'cccc', 'read', 'local', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z');
  `);
  await applyMigrations(runner());
});
afterAll(async () => {
  await pglite?.close();
  if (before) rmSync(before, { recursive: true, force: true });
});

describe('Existing nulls become what they meant', () => {
  it('a product: flags both, compounding m; stated values are kept', async () => {
    expect(
      await rows(
        'SELECT id, compounding_frequency, doc_fee_financed, private_sale, sale_hire_back, home_owner FROM products ORDER BY id',
      ),
    ).toEqual([
      {
        id: 1,
        compounding_frequency: 'm',
        doc_fee_financed: 'both',
        private_sale: 'both',
        sale_hire_back: 'both',
        home_owner: 'both',
      },
      {
        id: 2,
        compounding_frequency: 'q',
        doc_fee_financed: 'no',
        private_sale: 'yes',
        sale_hire_back: 'no',
        home_owner: 'yes',
      },
    ]);
  });

  it('an approval: asset_state none; a stated one is kept', async () => {
    expect(await rows('SELECT id, asset_state FROM approvals ORDER BY id')).toEqual([
      { id: 1, asset_state: 'none' },
      { id: 2, asset_state: 'used' },
    ]);
  });

  it('an API token: no expiry or one beyond the maximum becomes created_at + 365 days; a shorter one is kept', async () => {
    const tokens = await rows('SELECT id, expires_at FROM api_tokens ORDER BY id');
    expect(tokens.map((t) => (t.expires_at as Date).toISOString())).toEqual([
      '2027-01-10T00:00:00.000Z',
      '2027-01-10T00:00:00.000Z',
      '2026-07-01T00:00:00.000Z',
    ]);
  });
});

describe('The columns refuse null from now on', () => {
  it.each([
    ['UPDATE approvals SET asset_state = NULL WHERE id = 1'],
    ['UPDATE products SET home_owner = NULL WHERE id = 1'],
    ['UPDATE products SET compounding_frequency = NULL WHERE id = 1'],
    ['UPDATE api_tokens SET expires_at = NULL WHERE id = 1'],
  ])('%s', async (sql) => {
    await expect(pglite.exec(sql)).rejects.toThrow(/null value/);
  });

  it('a row written without them gets the defaults', async () => {
    await pglite.exec(`INSERT INTO products (id, product_name, organisation_id) VALUES (3, 'Later', 1);
      INSERT INTO approvals (id, name, doc_level, organisation_id) VALUES (3, 'Later', 'low_doc', 1);`);
    expect(await rows('SELECT home_owner, compounding_frequency FROM products WHERE id = 3')).toEqual([
      { home_owner: 'both', compounding_frequency: 'm' },
    ]);
    expect(await rows('SELECT asset_state FROM approvals WHERE id = 3')).toEqual([{ asset_state: 'none' }]);
  });
});
