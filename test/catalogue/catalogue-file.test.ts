import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANZSIC_DIVISIONS,
  CATALOGUE_KEYS,
  emptyExisting,
  parseCatalogueFile,
  planOverridesOf,
  type CatalogueFile,
} from '../../src/modules/catalogue/catalogue-file.ts';
import { PERMISSION_CODENAMES } from '../../src/lib/permissions.ts';
import { USER_GROUPS_MAX } from '../../src/lib/permissions.ts';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = (p: string) => JSON.parse(readFileSync(path.join(root, p), 'utf8'));
const EXAMPLE = readJson('docs/example-catalogue.json');
const DEMO = readJson('prisma/seed/demo-catalogue.json');

type Json = Record<string, any>;
const example = (): Json => structuredClone(EXAMPLE);

/** Parses `file` and expects it refused at `path` with a message matching `message`. */
function refused(file: unknown, path: string, message?: RegExp) {
  const r = parseCatalogueFile(file);
  expect(r.ok ? 'accepted' : `${r.path}: ${r.message}`).toMatch(new RegExp(`^${path.replace(/[.[\]$]/g, '\\$&')}: `));
  if (!r.ok && message) expect(r.message).toMatch(message);
}

describe('catalogue file: the shipped files', () => {
  it('accepts docs/example-catalogue.json', () => {
    const r = parseCatalogueFile(EXAMPLE);
    expect(r.ok ? 'ok' : `${r.path}: ${r.message}`).toBe('ok');
  });

  it('accepts prisma/seed/demo-catalogue.json', () => {
    const r = parseCatalogueFile(DEMO);
    expect(r.ok ? 'ok' : `${r.path}: ${r.message}`).toBe('ok');
  });

  it('the example file stays small and covers every key', () => {
    expect(Object.keys(EXAMPLE)).toEqual([...CATALOGUE_KEYS]);
    expect(EXAMPLE.organisations.filter((o: Json) => o.type === 'f')).toHaveLength(1);
    expect(EXAMPLE.organisations.filter((o: Json) => o.type === 'b')).toHaveLength(1);
    expect(EXAMPLE.users).toHaveLength(2);
    expect(EXAMPLE.products).toHaveLength(1);
    expect(EXAMPLE.rate_brackets).toHaveLength(2);
    expect(EXAMPLE.asset_rate_brackets).toHaveLength(1);
    expect(EXAMPLE.approvals).toHaveLength(2);
  });
});

describe('catalogue file: the demo data', () => {
  const file = DEMO as CatalogueFile;
  const financiers = file.organisations.filter((o) => o.type === 'f');

  it('has at least 6 financiers, each with 1-3 products, 3-8 brackets, mappings and approvals at every doc level', () => {
    expect(financiers.length).toBeGreaterThanOrEqual(6);
    for (const f of financiers) {
      const products = file.products.filter((p) => p.organisation_id === f.id);
      const brackets = file.rate_brackets.filter((b) => b.organisation_id === f.id);
      expect(products.length, f.name).toBeGreaterThanOrEqual(1);
      expect(products.length, f.name).toBeLessThanOrEqual(3);
      expect(brackets.length, f.name).toBeGreaterThanOrEqual(3);
      expect(brackets.length, f.name).toBeLessThanOrEqual(8);
      expect(
        file.asset_rate_brackets.some((m) => m.organisation_id === f.id),
        f.name,
      ).toBe(true);
      const levels = new Set(file.approvals.filter((a) => a.organisation_id === f.id).map((a) => a.doc_level));
      expect([...levels].sort(), f.name).toEqual(['full_doc', 'lite_doc', 'low_doc']);
    }
  });

  it('has realistic figures: base rates 6.5-16%, terms 12-84 months, one financier with consumer cards', () => {
    for (const b of file.rate_brackets) {
      expect(b.base_min).toBeGreaterThanOrEqual(6.5);
      expect(b.base_max).toBeLessThanOrEqual(16);
      expect(b.max_term ?? 84).toBeLessThanOrEqual(84);
    }
    for (const p of file.products) {
      expect(p.min_range).toBeGreaterThanOrEqual(12);
      expect(p.max_range).toBeLessThanOrEqual(84);
    }
    const consumerOwners = new Set(
      file.rate_brackets.filter((b) => b.type === 'consumer').map((b) => b.organisation_id),
    );
    expect(consumerOwners.size).toBe(1);
    expect(file.rate_brackets.some((b) => b.max_lvr != null)).toBe(true);
    expect(file.rate_brackets.some((b) => b.min_asset_age != null)).toBe(true);
  });

  it('maps mostly categories, some leaves, and whole products as well as single brackets', () => {
    const isCategory = new Map(file.assets.map((a) => [a.id, a.is_asset === false]));
    const onCategories = file.asset_rate_brackets.filter((m) => isCategory.get(m.asset_id)).length;
    expect(onCategories).toBeGreaterThan(file.asset_rate_brackets.length / 2);
    expect(file.asset_rate_brackets.some((m) => !isCategory.get(m.asset_id))).toBe(true);
    expect(file.asset_rate_brackets.some((m) => m.rate_bracket_id == null)).toBe(true);
    expect(file.asset_rate_brackets.some((m) => m.rate_bracket_id != null)).toBe(true);
  });

  it('has the asset tree the brief names', () => {
    const byName = new Map(file.assets.map((a) => [a.name, a]));
    expect(byName.get('Motor Vehicles')).toMatchObject({ id: 1, is_asset: false, parent_id: null });
    for (const leaf of ['Passenger Car', 'Light Commercial Vehicle (Ute/Van)'])
      expect(byName.get(leaf)?.parent_id).toBe(1);
    expect(byName.get('Yellow Goods / Construction')?.alias).toMatch(/earthmoving, plant/);
    for (const c of ['Trucks & Trailers', 'Agricultural', 'Medical Equipment', 'IT & Office Equipment']) {
      expect(byName.get(c)?.is_asset, c).toBe(false);
    }
  });

  it('links every approval to brackets of its own financier and uses ANZSIC codes', () => {
    const owner = new Map(file.rate_brackets.map((b) => [b.id, b.organisation_id]));
    for (const a of file.approvals) {
      expect(a.rate_bracket_ids?.length, a.name).toBeGreaterThan(0);
      for (const id of a.rate_bracket_ids ?? []) expect(owner.get(id), a.name).toBe(a.organisation_id);
      for (const i of a.industries ?? []) expect(Object.keys(ANZSIC_DIVISIONS)).toContain(i);
    }
  });

  it('has the demo accounts, brokers and subscription', () => {
    const user = (email: string) => file.users.find((u) => u.email === email)!;
    const org = (id: number | null | undefined) => file.organisations.find((o) => o.id === id)!;
    for (const u of file.users) expect(u).toMatchObject({ password: 'demo-password-1', is_email_verified: true });
    expect(org(user('broker.admin@demo.test').organisation_id)).toMatchObject({
      name: 'Demo Brokers Pty Ltd',
      type: 'b',
      plan: 'pro',
      is_bid_broker: true,
    });
    expect(user('broker.admin@demo.test').is_admin).toBe(true);
    expect(user('broker.user@demo.test')).toMatchObject({
      organisation_id: user('broker.admin@demo.test').organisation_id,
      is_admin: false,
    });
    expect(org(user('free.broker@demo.test').organisation_id)).toMatchObject({
      name: 'Solo Finance Broking',
      type: 'b',
      plan: 'free',
    });
    expect(user('free.broker@demo.test').is_admin).toBe(true);
    const fin = user('financier.admin@demo.test');
    expect(fin.is_admin).toBe(true);
    expect(fin.organisation_id).toBe(financiers[0].id);
    const perms = file.groups.filter((g) => fin.groups?.includes(g.name)).flatMap((g) => g.permissions ?? []);
    expect(perms).toEqual(expect.arrayContaining(['change_equipment', 'view_rate_card_version']));
    const pro = org(user('broker.admin@demo.test').organisation_id).id;
    expect(file.subscriptions).toEqual([
      expect.objectContaining({
        organisation_id: pro,
        plan: 'pro',
        plan_name: 'Pro',
        status: 'active',
        seats: 3,
        card_brand: 'visa',
        card_last4: '4242',
      }),
    ]);
    expect(file.subscriptions[0].current_period_end).toMatch(/^2027-/);
  });
});

describe('catalogue file: refusals report the path of the first bad field', () => {
  it('refuses a document that is not an object, and unknown or malformed top-level keys', () => {
    refused([], '$', /JSON object/);
    refused({ ...example(), approval: [] }, 'approval', /did you mean "approvals"/);
    refused({ ...example(), assets: {} }, 'assets', /must be a list/);
    refused({ ...example(), assets: [1] }, 'assets[0]', /must be an object/);
  });

  it('accepts absent keys as empty lists', () => {
    const r = parseCatalogueFile({});
    expect(r.ok && r.value).toEqual(Object.fromEntries(CATALOGUE_KEYS.map((k) => [k, []])));
  });

  it('wrong types', () => {
    const f = example();
    f.rate_brackets[0].base_min = '7.49';
    refused(f, 'rate_brackets[0].base_min', /must be a number/);
    const g = example();
    g.approvals[0].max_term = 60.5;
    refused(g, 'approvals[0].max_term', /integer/);
    const h = example();
    h.users[0].is_admin = 'yes';
    refused(h, 'users[0].is_admin', /true or false/);
    const i = example();
    i.organisations[1].is_bid_broker = null;
    refused(i, 'organisations[1].is_bid_broker', /true or false/);
    const j = example();
    j.approvals[0].asset_ids = 1;
    refused(j, 'approvals[0].asset_ids', /must be a list/);
    const k = example();
    k.products[0].min_amount = -1;
    refused(k, 'products[0].min_amount', />= 0/);
    const l = example();
    l.approvals[0].min_abn_age = 2 ** 31;
    refused(l, 'approvals[0].min_abn_age', /integer/);
  });

  it('bad enum values', () => {
    const f = example();
    f.approvals[1].doc_level = 'medium_doc';
    refused(f, 'approvals[1].doc_level', /low_doc, lite_doc, full_doc/);
    const g = example();
    g.organisations[0].type = 'financier';
    refused(g, 'organisations[0].type', /f, b, u/);
    const h = example();
    h.products[0].compounding_frequency = 'monthly';
    refused(h, 'products[0].compounding_frequency', /w, m, q, y/);
    const i = example();
    i.approvals[0].transaction_types = ['purchase', 'lease'];
    refused(i, 'approvals[0].transaction_types[1]', /purchase, refinance/);
    const j = example();
    j.approvals[1].industries = ['E', 'Construction'];
    refused(j, 'approvals[1].industries[1]', /A, B, C/);
    const k = example();
    k.rate_brackets[1].type = 'business';
    refused(k, 'rate_brackets[1].type', /commercial, consumer/);
  });

  it('missing required fields (absent or null)', () => {
    const f = example();
    delete f.users[1].password;
    refused(f, 'users[1].password', /is required/);
    const g = example();
    g.approvals[0].name = null;
    refused(g, 'approvals[0].name', /is required/);
    const h = example();
    delete h.rate_brackets[1].base_max;
    refused(h, 'rate_brackets[1].base_max', /is required/);
    const i = example();
    delete i.assets[2].name;
    refused(i, 'assets[2].name', /is required/);
    const j = example();
    delete j.products[0].product_name;
    refused(j, 'products[0].product_name', /is required/);
    const k = example();
    delete k.organisations[1].type;
    refused(k, 'organisations[1].type', /is required/);
    const l = example();
    l.assets[0].name = '  ';
    refused(l, 'assets[0].name', /must not be empty/);
  });

  it('unknown keys, reported before the fields of the same record', () => {
    const f = example();
    f.approvals[0].doc_levle = f.approvals[0].doc_level;
    delete f.approvals[0].doc_level;
    refused(f, 'approvals[0].doc_levle', /unknown field \(did you mean "doc_level"\?\)/);
    const g = example();
    g.assets[1].parent = 'Motor Vehicles';
    refused(g, 'assets[1].parent', /unknown field/);
    const h = example();
    h.users[0].password_hash = 'x';
    refused(h, 'users[0].password_hash', /unknown field/);
  });

  it('the first bad field in file order wins', () => {
    const f = example();
    f.approvals[0].doc_level = 'x';
    f.users[1].email = 'not-an-email';
    refused(f, 'users[1].email', /email address/);
    const g = example();
    g.approvals[1].doc_level = 'x';
    g.approvals[1].name = 7;
    refused(g, 'approvals[1].name', /string/);
    const h = example();
    h.approvals[0].rate_bracket_ids = [1, 999];
    h.approvals[0].asset_ids = [999];
    refused(h, 'approvals[0].asset_ids[0]', /asset 999 does not exist/);
  });

  it('dangling references', () => {
    const f = example();
    f.approvals[0].organisation_id = 99;
    refused(f, 'approvals[0].organisation_id', /organisation 99 does not exist/);
    const g = example();
    g.approvals[1].rate_bracket_ids = [1, 7];
    refused(g, 'approvals[1].rate_bracket_ids[1]', /rate bracket 7 does not exist/);
    const h = example();
    h.users[0].groups = ['Admins'];
    refused(h, 'users[0].groups[0]', /group "Admins" does not exist/);
    const many = example();
    many.users[0].groups = Array.from({ length: USER_GROUPS_MAX + 1 }, (_, n) => `G${n}`);
    refused(many, 'users[0].groups', new RegExp(`must hold at most ${USER_GROUPS_MAX} items`));
    const i = example();
    i.users[1].organisation_id = 3;
    refused(i, 'users[1].organisation_id', /organisation 3 does not exist/);
    const j = example();
    j.asset_rate_brackets[0].asset_id = 42;
    refused(j, 'asset_rate_brackets[0].asset_id', /asset 42 does not exist/);
    const k = example();
    k.assets[2].parent_id = 77;
    refused(k, 'assets[2].parent_id', /asset 77 does not exist/);
    const l = example();
    l.subscriptions = [{ organisation_id: 5, plan: 'pro', status: 'active' }];
    refused(l, 'subscriptions[0].organisation_id', /organisation 5 does not exist/);
  });

  it('ownership: brackets, mappings and approvals stay within one financier and product', () => {
    const withSecond = () => {
      const f = example();
      f.organisations.push({ id: 3, name: 'Red Gum Commercial Finance', type: 'f' });
      f.products.push({ id: 2, product_name: 'Red Gum Loan', organisation_id: 3 });
      f.rate_brackets.push({ id: 3, name: 'Standard', organisation_id: 3, product_id: 2, base_min: 9, base_max: 11 });
      return f;
    };
    const f = withSecond();
    f.rate_brackets[2].product_id = 1;
    refused(f, 'rate_brackets[2].product_id', /product 1 belongs to organisation 1, not 3/);
    const g = withSecond();
    g.approvals[0].rate_bracket_ids = [1, 3];
    refused(g, 'approvals[0].rate_bracket_ids[1]', /rate bracket 3 belongs to organisation 3, not 1/);
    const h = withSecond();
    h.asset_rate_brackets[0].rate_bracket_id = 3;
    refused(h, 'asset_rate_brackets[0].rate_bracket_id', /rate bracket 3 belongs to product 2, not 1/);
    const i = withSecond();
    i.approvals[0].organisation_id = 2;
    refused(i, 'approvals[0].organisation_id', /organisation 2 is not a financier/);
    const j = example();
    j.products[0].organisation_id = null;
    refused(j, 'rate_brackets[0].product_id', /product 1 has no organisation/);
  });

  it('duplicate ids, emails, group names and list members', () => {
    const f = example();
    f.assets[4].id = 2;
    refused(f, 'assets[4].id', /duplicate id 2 \(first at assets\[1\]\.id\)/);
    const g = example();
    g.users[1].email = 'Editor@Harbour.example';
    refused(g, 'users[1].email', /duplicate email/);
    const h = example();
    h.groups.push({ name: 'rate card editors' });
    refused(h, 'groups[1].name', /duplicate group name/);
    const i = example();
    i.approvals[0].transaction_types = ['purchase', 'purchase'];
    refused(i, 'approvals[0].transaction_types[1]', /listed twice/);
    const j = example();
    j.approvals[1].id = 1;
    refused(j, 'approvals[1].id', /duplicate id 1/);
    const k = example();
    k.subscriptions = [
      { organisation_id: 2, plan: 'pro', status: 'active' },
      { organisation_id: 2, plan: 'pro', status: 'active' },
    ];
    refused(k, 'subscriptions[1].organisation_id', /duplicate subscription/);
  });

  it('asset tree cycles', () => {
    const f = example();
    f.assets[0].parent_id = 2; // 1 -> 2 -> 1
    refused(f, 'assets[0].parent_id', /cycle: 1 -> 2 -> 1/);
    const g = example();
    g.assets[3].parent_id = 4;
    refused(g, 'assets[3].parent_id', /cycle: 4 -> 4/);
    const h = example();
    h.assets[3].parent_id = 5; // 4 -> 5 -> 4, found at the first member in file order
    refused(h, 'assets[3].parent_id', /cycle: 4 -> 5 -> 4/);
    const i = example();
    i.assets[1].parent_id = 5;
    i.assets[3].parent_id = 5; // 2 -> 5 -> 4 -> 5: reported on 4, not 2
    refused(i, 'assets[3].parent_id', /cycle: 4 -> 5 -> 4/);
  });

  it('plan overrides', () => {
    const f = example();
    f.organisations[1].entitlements = ['matrix'];
    refused(f, 'organisations[1].entitlements[0]', /matrix.enabled, consumer.enabled, reports.enabled/);
    const g = example();
    g.organisations[1].limit = -1;
    refused(g, 'organisations[1].limit', />= 0/);
    const h = example();
    h.organisations[1].saved_scenario_limit = null;
    refused(h, 'organisations[1].saved_scenario_limit', /integer/);
    const i = example();
    i.organisations[1].plan_overrides = { limit: 3 };
    refused(i, 'organisations[1].plan_overrides', /unknown field/);
    const j = example();
    j.organisations[1].plan = 'premium';
    refused(j, 'organisations[1].plan', /free, pro, max, team, enterprise/);
  });

  it("collects plan overrides, keeping null (unlimited) apart from absent (the plan's value)", () => {
    expect(
      planOverridesOf({
        id: 1,
        name: 'x',
        type: 'b',
        plan: 'free',
        entitlements: ['matrix.enabled'],
        matrix_allowance: 10,
        limit: null,
      }),
    ).toEqual({ limit: null, matrix_allowance: 10, entitlements: ['matrix.enabled'] });
    expect(planOverridesOf({ id: 1, name: 'x', type: 'b' })).toEqual({});
  });

  it('permission codenames', () => {
    const f = example();
    f.groups[0].permissions = ['change_rate_card', 'edit_everything'];
    refused(f, 'groups[0].permissions[1]', new RegExp(PERMISSION_CODENAMES.join(', ')));
    const g = example();
    g.groups[0].permissions = [...PERMISSION_CODENAMES];
    expect(parseCatalogueFile(g).ok).toBe(true);
  });

  it('money on approvals: numbers or decimal strings', () => {
    const ok = example();
    ok.approvals[1].min_asset_cost = '20000.50';
    ok.approvals[1].min_deposit_amount = 2500;
    expect(parseCatalogueFile(ok).ok).toBe(true);
    const f = example();
    f.approvals[1].min_asset_cost = '$20,000';
    refused(f, 'approvals[1].min_asset_cost', /decimal string/);
    const g = example();
    g.approvals[1].min_deposit_percentage = 120;
    refused(g, 'approvals[1].min_deposit_percentage', /at most 100/);
    const h = example();
    h.approvals[0].max_asset_cost = '-5';
    refused(h, 'approvals[0].max_asset_cost', /decimal string/);
  });

  it('inverted ranges are reported on the max field', () => {
    const f = example();
    f.products[0].max_range = 6;
    refused(f, 'products[0].max_range', /at least min_range \(12\)/);
    const g = example();
    g.rate_brackets[0].base_max = 7;
    refused(g, 'rate_brackets[0].base_max', /at least base_min \(7.49\)/);
    const h = example();
    h.approvals[1].max_asset_cost = '10000';
    refused(h, 'approvals[1].max_asset_cost', /at least min_asset_cost/);
  });

  it('other field rules: emails, passwords, ABNs, card digits, datetimes, NUL', () => {
    const f = example();
    f.users[0].password = 'short';
    refused(f, 'users[0].password', /at least 8/);
    const g = example();
    g.organisations[1].abn = '1234';
    refused(g, 'organisations[1].abn', /11-digit ABN/);
    const sub = { organisation_id: 2, plan: 'pro', status: 'active' };
    const h = example();
    h.subscriptions = [{ ...sub, card_last4: '42' }];
    refused(h, 'subscriptions[0].card_last4', /four digits/);
    const i = example();
    i.subscriptions = [{ ...sub, current_period_end: '01/03/2027' }];
    refused(i, 'subscriptions[0].current_period_end', /ISO 8601/);
    const j = example();
    j.subscriptions = [{ ...sub, status: 'live' }];
    refused(j, 'subscriptions[0].status', /trialing, active/);
    const k = example();
    k.approvals[0].name = 'a\u0000b';
    refused(k, 'approvals[0].name', /NUL/);
  });

  it('normalises emails and ABNs', () => {
    const f = example();
    f.users[1].email = 'Broker@Example.TEST';
    f.organisations[1].abn = '51 824 753 556';
    const r = parseCatalogueFile(f);
    expect(r.ok && r.value.users[1].email).toBe('broker@example.test');
    expect(r.ok && r.value.organisations[1].abn).toBe('51824753556');
  });
});

describe('catalogue file: against an existing database', () => {
  const existing = () => {
    const e = emptyExisting();
    e.organisations.set(1, 'f');
    e.organisations.set(2, 'b');
    e.products.set(1, 1);
    e.rate_brackets.set(1, { organisation_id: 1, product_id: 1 });
    e.assets.set(1, null);
    e.groups.add('Rate card editors');
    e.users.add(1);
    e.emails.add('old@x.test');
    return e;
  };

  it('resolves references to rows already in the database', () => {
    const file = {
      approvals: [
        {
          id: 50,
          name: 'Added later',
          doc_level: 'full_doc',
          organisation_id: 1,
          asset_ids: [1],
          rate_bracket_ids: [1],
        },
      ],
      users: [
        { id: 9, email: 'new@x.test', password: 'long-enough', organisation_id: 2, groups: ['Rate card editors'] },
      ],
    };
    expect(parseCatalogueFile(file, existing()).ok).toBe(true);
    refused(file, 'users[0].organisation_id', /does not exist/); // without the database the file is not self-contained
  });

  it('refuses ids, emails and group names that already exist', () => {
    const dup = (file: unknown) => parseCatalogueFile(file, existing());
    expect(dup({ organisations: [{ id: 1, name: 'x', type: 'f' }] })).toMatchObject({
      ok: false,
      path: 'organisations[0].id',
      message: expect.stringMatching(/already exists in the database/),
    });
    expect(dup({ users: [{ id: 5, email: 'OLD@x.test', password: 'long-enough' }] })).toMatchObject({
      ok: false,
      path: 'users[0].email',
    });
    expect(dup({ groups: [{ name: 'Rate card editors' }] })).toMatchObject({ ok: false, path: 'groups[0].name' });
  });
});
