/**
 * The deployment files describe a production-shaped service (docker-compose.yml, Dockerfile), and the build step the
 * image runs produces JavaScript that starts with plain node (no TypeScript loader) and answers /healthz.
 * No Docker engine is needed: the files are parsed, the build is run here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, cleanUpSpawned, freePort, removeLater, runCommand, tempDataDir } from '../../testkit/spawned.ts';

afterAll(cleanUpSpawned);

const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

/** An image reference pinned to an exact release (`name:1.2.3...` or `name:15.18...`) or a digest. */
const PINNED = /(:\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?|@sha256:[0-9a-f]{64})$/;

/** The services a plain `docker compose up` starts (no profile). */
const defaultServices = Object.entries(compose.services as Record<string, any>).filter(([, s]) => !s.profiles);

describe('docker-compose.yml is production-shaped', () => {
  const service = compose.services.service;

  it('runs the service in prod, not local (no demo admins, no GraphiQL)', () => {
    expect(service.environment.SERVICE_ENVIRONMENT).toBe('prod');
    for (const [, s] of defaultServices) expect(s.environment?.SERVICE_ENVIRONMENT ?? 'prod').toBe('prod');
  });

  it('requires JWT_SECRET and the database password from the environment (no value in the file)', () => {
    expect(service.environment.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
    expect(compose.services.db.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
    expect(service.environment.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
  });

  it('pins every image to an exact release', () => {
    for (const [name, s] of Object.entries(compose.services as Record<string, any>))
      expect(s.image, `service ${name}`).toMatch(PINNED);
  });

  it('publishes ports on the loopback interface only', () => {
    for (const [name, s] of Object.entries(compose.services as Record<string, any>))
      for (const port of s.ports ?? []) expect(String(port), `service ${name}`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('has a health check on readiness and starts the service only once the database is healthy', () => {
    expect(service.healthcheck.test.join(' ')).toContain('/readyz');
    expect(service.depends_on.db.condition).toBe('service_healthy');
  });

  it('keeps the local try-out (demo data, GraphiQL) behind the `dev` profile only', () => {
    const local = Object.entries(compose.services as Record<string, any>).filter(
      ([, s]) => s.environment?.SERVICE_ENVIRONMENT === 'local',
    );
    for (const [name, s] of local) expect(s.profiles, `service ${name}`).toEqual(['dev']);
  });
});

describe('the Dockerfile builds compiled JavaScript and checks its health', () => {
  const from = [...dockerfile.matchAll(/^ARG NODE_IMAGE=(\S+)$/gm)].map((m) => m[1]);

  it('pins the base image to an exact release', () => {
    expect(from).toHaveLength(1);
    expect(from[0]).toMatch(PINNED);
    for (const line of dockerfile.match(/^FROM .*$/gm) ?? []) expect(line).toMatch(/^FROM \$\{NODE_IMAGE\}/);
  });

  it('compiles at build time and runs node on dist/main.js, with no TypeScript loader', () => {
    expect(dockerfile).toMatch(/^RUN npm run build/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/main\.js"\]$/m);
    expect(dockerfile).not.toMatch(/^CMD .*tsx/m);
  });

  it('declares a HEALTHCHECK', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
  });
});

// tsc over the whole tree, then a first PGlite start: about a minute on a quiet machine, many on a loaded one. Too
// slow for every `npm test`: .ci/run runs it once, as its own step (TEST_BUILD=1).
describe.runIf(process.env.TEST_BUILD === '1')(
  'npm run build produces JavaScript that starts with plain node and answers /healthz',
  {
    timeout: 900_000,
  },
  () => {
    it('builds, starts `node OUT/main.js` in prod on PGlite, and answers 200', async () => {
      const out = `.build-test-${process.pid}`;
      removeLater(path.join(ROOT, out));
      const build = runCommand(process.execPath, ['scripts/build.mjs', out], {});
      expect(await build.exit, build.stdout() + build.stderr()).toBe(0);

      const port = await freePort();
      // Plain node: any TypeScript left in the output would fail to load.
      const started = runCommand(process.execPath, [path.join(out, 'main.js')], {
        PORT: String(port),
        DATA_DIR: tempDataDir(),
      });
      await started.waitForStdout(/serving on/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
    });
  },
);
