import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { POSTGRES_PASS, QUICK } from './test/passes.ts';

const require = createRequire(import.meta.url);

/** TEST_PASS picks a named subset (test/passes.ts); unset: every file. */
const PASSES: Record<string, string[]> = { postgres: POSTGRES_PASS, quick: QUICK };
const pass = process.env.TEST_PASS;
if (pass && !PASSES[pass]) throw new Error(`TEST_PASS=${pass}: expected one of ${Object.keys(PASSES).join(', ')}`);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) copies. Node loads the CJS one for our dependencies, Vite would
    // give our own code the ESM one: two copies break instanceof checks. Pin everything to the one Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: pass ? PASSES[pass] : ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Test files share their worker's loaded modules instead of each importing the whole app again (most of a file's
    // cost was collecting those modules). Each file still starts its own app on its own database, so files share no
    // data; what files must not leave behind (process.env, timers, spies) they restore themselves.
    isolate: false,
    // Vitest's default leaves a core idle (cores - 1: one worker on a 2-core machine). Test files spend much of
    // their time waiting on sockets and child processes, so every core gets a worker.
    maxWorkers: availableParallelism(),
  },
});
