/** The suite's named subsets (test/passes.ts) hold what they promise. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POSTGRES_PASS } from './passes.ts';

const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/${name}`)
  .sort();

describe('The PostgreSQL pass runs every file that behaves differently on PostgreSQL', () => {
  it('each test file that reads TEST_DATABASE_URL is in it', () => {
    const readers = testFiles.filter(
      (file) => file !== 'test/passes.test.ts' && readFileSync(file, 'utf8').includes('TEST_DATABASE_URL'),
    );
    expect(readers.length).toBeGreaterThan(0);
    expect(readers.filter((file) => !POSTGRES_PASS.includes(file))).toEqual([]);
  });

  it('each file it names exists', () => {
    expect(POSTGRES_PASS.filter((file) => !testFiles.includes(file))).toEqual([]);
  });
});
