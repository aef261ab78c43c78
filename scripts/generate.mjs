// Generates the Prisma client and the Pothos types (src/generated, not committed).
// `prisma generate` never runs the native schema engine, but the CLI insists the binary exists; where it cannot be
// downloaded we point it at any existing file (node itself).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
// The Pothos generator is run by name from node_modules/.bin.
env.PATH = `${path.resolve('node_modules/.bin')}${path.delimiter}${env.PATH ?? ''}`;
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
