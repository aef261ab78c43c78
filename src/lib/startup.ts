/**
 * Start-up decisions, kept pure so they are unit-tested: whether to load the demo data, and what the start banner
 * says. The demo accounts (admins included) share a published password, so `prod` never gets them, and the password
 * is printed only by the start that just created those accounts, never by later starts.
 */
import path from 'node:path';
import type { ServiceEnvironment } from './vocabulary.ts';

export const DEMO_LOGINS = [
  'broker.admin@demo.test',
  'broker.user@demo.test',
  'free.broker@demo.test',
  'financier.admin@demo.test',
];
export const DEMO_PASSWORD = 'demo-password-1';
/** The demo catalogue `npm start` loads on an empty database outside prod (tests and the benchmark start from it too). */
export const DEMO_CATALOGUE_PATH = path.resolve(import.meta.dirname, '../../prisma/seed/demo-catalogue.json');

export type DemoDataDecision = 'load' | 'keep-existing' | 'never-in-prod';

export function demoDataDecision(environment: ServiceEnvironment, databaseEmpty: boolean): DemoDataDecision {
  if (environment === 'prod') return 'never-in-prod';
  return databaseEmpty ? 'load' : 'keep-existing';
}

export interface BannerFacts {
  environment: ServiceEnvironment;
  port: number;
  where: string;
  graphqlExplorer: boolean;
  decision: DemoDataDecision;
  databaseEmpty: boolean;
}

export function startupBanner(f: BannerFacts): string[] {
  const base = `http://localhost:${f.port}`;
  const demoLoaded = f.decision === 'load' && f.environment !== 'prod';
  const lines = [
    `Asset-finance service (${f.environment}) serving on ${f.where}${demoLoaded ? ', demo data loaded' : ''}`,
    `  GraphQL:  ${base}/graphql${f.graphqlExplorer ? ' (GraphiQL in a browser)' : ''}`,
    `  REST:     ${base}/api/v1 (reference: ${base}/docs)`,
  ];
  if (demoLoaded) lines.push(`  Demo logins (password ${DEMO_PASSWORD}): ${DEMO_LOGINS.join(', ')}`);
  if (f.decision === 'never-in-prod' && f.databaseEmpty)
    lines.push(
      '  The database is empty: load a catalogue with `npm run seed -- --file PATH` (demo data is never loaded in prod).',
    );
  return lines;
}
