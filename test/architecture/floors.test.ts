/**
 * The floors of .dependency-cruiser.cjs fire: a fixture tree (test/architecture/fixture/src) with one import of each
 * forbidden kind, and imports that are allowed, is cruised with the project's rules.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs');
const fixture = path.join(import.meta.dirname, 'fixture');

async function violations(): Promise<string[]> {
  const result = await cruise(['src'], {
    baseDir: fixture,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    tsPreCompilationDeps: true,
  });
  if (typeof result.output === 'string') throw new Error('expected a cruise result');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

describe('Floors: each forbidden import fails the lint, the allowed ones pass', () => {
  it('names exactly the forbidden imports of the fixture', async () => {
    expect(await violations()).toEqual(
      [
        'graphql-kit-imports-only-the-kit: src/graphql/uses-server.ts -> src/graphql-server/server.ts',
        'lib-imports-no-floor-above: src/lib/uses-module.ts -> src/modules/alpha/index.ts',
        'modules-import-no-surface: src/modules/beta/service.ts -> src/rest/route.ts',
        'modules-meet-through-public-entries: src/modules/beta/service.ts -> src/modules/alpha/service.ts',
        'no-circular: src/modules/gamma/a.ts -> src/modules/gamma/b.ts',
        'rest-is-a-table: src/rest/route.ts -> src/modules/alpha/index.ts',
        'surfaces-use-public-entries: src/graphql-server/server.ts -> src/modules/alpha/service.ts',
      ].sort(),
    );
  });
});
