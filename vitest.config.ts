import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) copies. Node loads the CJS one for our dependencies, Vite would
    // give our own code the ESM one: two copies break instanceof checks. Pin everything to the one Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default leaves a core idle (cores - 1: one worker on a 2-core machine). Test files spend much of
    // their time waiting on sockets and child processes, so every core gets a worker.
    maxWorkers: availableParallelism(),
  },
});
