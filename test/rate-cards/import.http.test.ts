/**
 * Rate-card import over HTTP (docs/rate-card-import.md): the preview writes nothing, a bad file writes nothing, the
 * apply replaces the whole card at once and records one version, only the financier's own people may do either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_REASON, type RateCard } from '../../src/modules/rate-cards/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type FinancierSeed } from '../../testkit/seed.ts';

const CORPUS = path.join(import.meta.dirname, 'import-corpus');
const read = (name: string) => readFileSync(path.join(CORPUS, name), 'utf8');
const formatOf = (name: string) => (name.endsWith('.csv') ? 'csv' : 'json');
const EXPECTED: Record<string, { location: string; message: string }> = JSON.parse(read('expected.json'));

let t: TestApp;
let kit: ReturnType<typeof seedKit>;
let financier: FinancierSeed;
let admin: string; // a session of the financier's admin
let linkedBracketId: number;

const CURRENT_CSV = [
  'product_name,monthly_fee,name,min_term,max_term,base_min,base_max',
  'Low Doc,5,Tier A,12,36,8.45,8.45',
  'Low Doc,5,Tier B,37,60,9.10,9.10',
].join('\n');

beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
  financier = await kit.financier();
  const low = await financier.product({ product_name: 'Low Doc', monthly_fee: 5, compounding_frequency: null });
  const a = await low.bracket({ name: 'Tier A', min_term: 12, max_term: 36, base_min: 8.45, base_max: 8.45 });
  await low.bracket({ name: 'Tier B', min_term: 37, max_term: 60, base_min: 9.1, base_max: 9.1 });
  linkedBracketId = a.id;
  await financier.approval({ name: 'Low doc up to $150k', brackets: [a] });
  const user = await financier.user({ is_admin: true });
  admin = (await t.login(user.email)).access;
});
afterAll(async () => {
  await t?.close();
});

/** Every row an import could touch, counted (and the versions it would record). */
async function counts() {
  const p = t.database.prisma;
  return {
    products: await p.product.count(),
    rate_brackets: await p.rateBracket.count(),
    approval_links: await p.approvalRateBracket.count(),
    asset_mappings: await p.assetRateBracket.count(),
    versions: await p.rateCardVersion.count(),
  };
}
const card = () =>
  Promise.all([
    t.database.prisma.product.findMany({ where: { organisation_id: financier.id }, orderBy: { id: 'asc' } }),
    t.database.prisma.rateBracket.findMany({ where: { organisation_id: financier.id }, orderBy: { id: 'asc' } }),
  ]);
const preview = (format: string, content: string, token = admin) =>
  t.rest('POST', '/api/v1/rate-cards/import/preview', { token, body: { format, content } });
const apply = (format: string, content: string, expected_version: unknown, token = admin) =>
  t.rest('POST', '/api/v1/rate-cards/import', { token, body: { format, content, expected_version } });

describe('preview: what a file would change, and nothing written', () => {
  it('answers the sentences, warnings, parts and subtrees, and the version to apply against', async () => {
    const before = await counts();
    const cardBefore = await card();
    const content = [
      'product_name,monthly_fee,name,min_term,max_term,base_min,base_max',
      'Low Doc,5,Tier B,37,60,10.60,10.60',
      'Low Doc Plus,,Plus A,12,36,9.00,9.00',
    ].join('\r\n');
    const res = await preview('csv', content);
    expect(res.status).toBe(200);
    expect(res.body.summary_lines).toEqual([
      'Removes bracket “Tier A” from “Low Doc”.',
      'Raises base rate of “Tier B” in “Low Doc” from 9.10% to 10.60%.',
      'Adds product “Low Doc Plus” with 1 bracket.',
    ]);
    expect(res.body.warnings).toEqual([
      'Base rate of “Tier B” in “Low Doc” moves by 1.50 points (minimum from 9.10% to 10.60%), more than the 1.00-point threshold.',
      'Removing “Tier A” from “Low Doc” unlinks it from approval “Low doc up to $150k”.',
    ]);
    expect(res.body.parts).toEqual({
      products: { added: 1, changed: 0, removed: 0, unchanged: 1 },
      rate_brackets: { added: 1, changed: 1, removed: 1, unchanged: 0 },
    });
    expect(Object.keys(res.body.subtrees)).toEqual(['Low Doc', 'Low Doc Plus']);
    expect(res.body.expected_version).toEqual(expect.any(Number));
    expect(await counts()).toEqual(before);
    expect(await card()).toEqual(cardBefore);
  });

  it('GraphQL previewRateCardImport answers the same', async () => {
    const rest = await preview('csv', CURRENT_CSV.replace('8.45,8.45', '8.50,8.50'));
    const gql: any = await t.graphql(admin).request(
      `query($content: String!) { previewRateCardImport(format: csv, content: $content) {
        __typename ... on RateCardImportPreview { summary_lines warnings parts subtrees expected_version } } }`,
      { content: CURRENT_CSV.replace('8.45,8.45', '8.50,8.50') },
    );
    const { __typename, ...body } = gql.previewRateCardImport;
    expect(__typename).toBe('RateCardImportPreview');
    expect(body).toEqual(rest.body);
    expect(body.summary_lines).toEqual(['Raises base rate of “Tier A” in “Low Doc” from 8.45% to 8.50%.']);
  });

  it('the card as it is: "No changes."', async () => {
    const res = await preview('csv', CURRENT_CSV);
    expect(res.body).toMatchObject({ summary_lines: ['No changes.'], warnings: [] });
  });
});

describe('a bad file is refused with every location, and nothing is written', () => {
  const files = readdirSync(path.join(CORPUS, 'bad')).sort();
  it(`each of the ${files.length} corpus files: 400 at its location from the preview and from the apply`, async () => {
    const before = await counts();
    const cardBefore = await card();
    const { expected_version } = (await preview('csv', CURRENT_CSV)).body;
    for (const file of files) {
      const { location, message } = EXPECTED[file];
      for (const res of [
        await preview(formatOf(file), read(`bad/${file}`)),
        await apply(formatOf(file), read(`bad/${file}`), expected_version),
      ]) {
        expect(res.status, file).toBe(400);
        if (read(`bad/${file}`).includes('\u0000')) {
          // Raw NUL never reaches the import: the REST boundary refuses unstorable text, naming the field.
          expect(Object.keys(res.body.errors)).toEqual(['content']);
          continue;
        }
        expect(res.body.error, `${file}: ${JSON.stringify(res.body)}`).toBe(
          'The file was refused; nothing was written.',
        );
        const at = Object.keys(res.body.errors).find((l) =>
          location.startsWith('re:') ? new RegExp(`^${location.slice(3)}$`).test(l) : l === location,
        );
        expect(at, `${file}: ${JSON.stringify(res.body.errors)}`).toBeDefined();
        expect(res.body.errors[at as string].join(' | '), file).toContain(message);
      }
    }
    expect(await counts()).toEqual(before);
    expect(await card()).toEqual(cardBefore);
  });

  it('format and content are required and named', async () => {
    const res = await t.rest('POST', '/api/v1/rate-cards/import/preview', { token: admin, body: { format: 'xlsx' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['format']));
  });
});

describe('apply: the whole card replaced at once, recorded as one version "Imported from file"', () => {
  it('needs the expected version', async () => {
    const before = await counts();
    const res = await apply('csv', CURRENT_CSV, undefined);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain('expected_version');
    expect(await counts()).toEqual(before);
  });

  it('a stale expected version is a 409 and writes nothing', async () => {
    const before = await counts();
    const { expected_version } = (await preview('csv', CURRENT_CSV)).body;
    const res = await apply('json', read('good/card.json'), expected_version + 1);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'version_conflict', current_version: expected_version });
    expect(await counts()).toEqual(before);
  });

  it('the expected version may come as If-Match; GraphQL answers a stale one as RateCardVersionConflictError', async () => {
    const { expected_version } = (await preview('csv', CURRENT_CSV)).body;
    const stale = await t.rest('POST', '/api/v1/rate-cards/import', {
      token: admin,
      body: { format: 'csv', content: CURRENT_CSV },
      headers: { 'if-match': `W/"${expected_version + 5}"` },
    });
    expect(stale.status).toBe(409);
    const gql: any = await t.graphql(admin).request(
      `mutation($content: String!, $v: Int!) { applyRateCardImport(format: csv, content: $content, expectedVersion: $v) {
        __typename ... on RateCardVersionConflictError { current_version } } }`,
      { content: CURRENT_CSV, v: expected_version + 5 },
    );
    expect(gql.applyRateCardImport).toEqual({
      __typename: 'RateCardVersionConflictError',
      current_version: expected_version,
    });
  });

  it('applies the file, answers what changed, records the version; the same file again changes nothing', async () => {
    const { expected_version, summary_lines } = (await preview('json', read('good/card.json'))).body;
    const versionsBefore = await t.database.prisma.rateCardVersion.count({ where: { organisation_id: financier.id } });
    const res = await apply('json', read('good/card.json'), expected_version);
    expect(res.status).toBe(200);
    expect(res.body.summary_lines).toEqual(summary_lines);
    expect(res.headers.get('etag')).toBe(`"${res.body.card_version}"`);
    const version = await t.database.prisma.rateCardVersion.findUniqueOrThrow({ where: { id: res.body.version_id } });
    expect(version).toMatchObject({
      organisation_id: financier.id,
      resource: 'rate_card',
      reason: 'Imported from file',
    });
    // The card's first recorded change, so its baseline (the card before the import, pinned) is recorded with it.
    expect(await t.database.prisma.rateCardVersion.count({ where: { organisation_id: financier.id } })).toBe(
      versionsBefore + 2,
    );
    const baseline = await t.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: financier.id, reason: BASELINE_REASON },
    });
    expect(baseline).toMatchObject({ resource: 'rate_card', pinned: true });
    expect(baseline.id).toBeLessThan(version.id);
    const original = baseline.payload as unknown as RateCard;
    expect(original.products.map((p) => p.product_name)).toEqual(['Low Doc']);
    expect(original.rate_brackets.map((b) => b.name)).toEqual(['Tier A', 'Tier B']);
    const [products, brackets] = await card();
    expect(products.map((p) => p.product_name).sort()).toEqual(['Full Doc "Premium", Trucks', 'Low Doc', 'Spare']);
    expect(brackets.map((b) => b.name).sort()).toEqual(['Standard', 'Tier A 12–36 months', 'Tier B 37–60 months']);
    // Low Doc matched by name: same row, updated in place.
    expect(products.find((p) => p.product_name === 'Low Doc')).toMatchObject({ monthly_fee: 5, max_amount: 250000 });
    // The approval's link to the removed "Tier A" went with it.
    expect(await t.database.prisma.approvalRateBracket.count({ where: { rate_bracket_id: linkedBracketId } })).toBe(0);

    for (const [format, file] of [
      ['json', 'good/card.json'],
      ['csv', 'good/card.csv'],
      ['csv', 'good/card-reordered.csv'],
    ]) {
      const again = await preview(format, read(file));
      expect(again.body.summary_lines, file).toEqual(['No changes.']);
      expect(again.body.expected_version).toBe(res.body.card_version);
    }
  });
});

describe('text that starts like a spreadsheet formula is imported and answered as sent (docs/api-decisions.md)', () => {
  it('a card named with -, +, @ and = is applied; the names are stored and answered exactly', async () => {
    const lender = await kit.financier();
    const token = (await t.login((await lender.user({ is_admin: true })).email)).access;
    const content = [
      'product_name,name,base_min,base_max',
      '-Cash Flow,+ balloon 20%,8,8',
      '-Cash Flow,@ 5% floor,8,8',
      '"=HYPERLINK(""http://x.test"")",-2+3,8,8',
    ].join('\n');
    const { expected_version } = (await preview('csv', content, token)).body;
    const res = await apply('csv', content, expected_version, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary_lines).toEqual(
      expect.arrayContaining([
        'Adds product “-Cash Flow” with 2 brackets.',
        'Adds product “=HYPERLINK("http://x.test")” with 1 bracket.',
      ]),
    );
    const stored = await t.database.prisma.rateBracket.findMany({
      where: { organisation_id: lender.id },
      select: { name: true, product: { select: { product_name: true } } },
      orderBy: { name: 'asc' },
    });
    expect(stored).toEqual([
      { name: '+ balloon 20%', product: { product_name: '-Cash Flow' } },
      { name: '-2+3', product: { product_name: '=HYPERLINK("http://x.test")' } },
      { name: '@ 5% floor', product: { product_name: '-Cash Flow' } },
    ]);
  });
});

describe('concurrent applies against one version: exactly one wins, the other is a 409', () => {
  it('two imports sent at once with the same expected version', async () => {
    const { expected_version } = (await preview('csv', CURRENT_CSV)).body;
    const results = await Promise.all([
      apply('csv', CURRENT_CSV.replace('8.45,8.45', '8.60,8.60'), expected_version),
      apply('csv', CURRENT_CSV.replace('8.45,8.45', '8.70,8.70'), expected_version),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)?.body;
    expect(results.find((r) => r.status === 409)?.body).toEqual({
      error: 'version_conflict',
      current_version: winner.card_version,
    });
    const imported = await t.database.prisma.rateCardVersion.count({
      where: { organisation_id: financier.id, reason: 'Imported from file', id: { gte: winner.version_id } },
    });
    expect(imported).toBe(1);
  });
});

describe('who may import: the financier’s own people with change_rate_card, by session or read_write token', () => {
  it('anonymous: 401', async () => {
    const res = await t.rest('POST', '/api/v1/rate-cards/import/preview', {
      body: { format: 'csv', content: CURRENT_CSV },
    });
    expect(res.status).toBe(401);
  });

  it('a broker, a financier user without the permission, and a read token: 403, nothing written', async () => {
    const before = await counts();
    const broker = await kit.broker();
    const brokerAdmin = await broker.user({ is_admin: true });
    const plain = await financier.user();
    const session = (await t.login(plain.email)).access;
    const readToken = (
      await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: 'read', scope: 'read' } })
    ).body.token;
    for (const token of [(await t.login(brokerAdmin.email)).access, session, readToken]) {
      expect((await preview('csv', CURRENT_CSV, token)).status).toBe(403);
      expect((await apply('csv', CURRENT_CSV, 0, token)).status).toBe(403);
    }
    expect(await counts()).toEqual(before);
  });

  it('a financier user given change_rate_card may, and so may a read_write token', async () => {
    const editor = await financier.user({ groups: [{ name: 'Rate editors', permissions: ['change_rate_card'] }] });
    const session = (await t.login(editor.email)).access;
    expect((await preview('csv', CURRENT_CSV, session)).status).toBe(200);
    const rw = (await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: 'rw', scope: 'read_write' } }))
      .body.token;
    expect((await preview('csv', CURRENT_CSV, rw)).status).toBe(200);
  });

  it('another financier imports into its own card only: this card is untouched', async () => {
    const other = await kit.financier();
    const otherAdmin = await other.user({ is_admin: true });
    const token = (await t.login(otherAdmin.email)).access;
    const cardBefore = await card();
    const { expected_version } = (await preview('csv', CURRENT_CSV, token)).body;
    const res = await apply('csv', CURRENT_CSV, expected_version, token);
    expect(res.status).toBe(200);
    expect(res.body.summary_lines).toEqual(['Adds product “Low Doc” with 2 brackets.']);
    expect(await card()).toEqual(cardBefore);
    expect(await t.database.prisma.product.count({ where: { organisation_id: other.id } })).toBe(1);
  });
});
