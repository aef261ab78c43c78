// `npm run build [-- OUT_DIR]`: compiles src/ to plain JavaScript (default dist/), so the service runs on `node
// dist/main.js` with no TypeScript loader (the container image does). tsc rewrites the `.ts` import specifiers to `.js`;
// the files src/ reads at run time (the OpenAPI YAML, the browser scripts) are copied beside the compiled code.
// OUT_DIR must sit directly in the repository (as dist/ does): compiled code finds prisma/ at ../../ from its folders,
// as src/ does.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(root, process.argv[2] ?? 'dist');
if (path.dirname(out) !== root) {
  console.error(`build: the output folder must be directly in ${root}, got ${out}`);
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out],
  { stdio: 'inherit', cwd: root },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const src = path.join(root, 'src');
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
  const from = path.join(entry.parentPath, entry.name);
  cpSync(from, path.join(out, path.relative(src, from)));
}
console.log(
  `build: compiled src/ to ${path.relative(root, out) || '.'}/ (run: node ${path.relative(root, out)}/main.js)`,
);
