/**
 * Start-up decisions, kept pure so they are unit-tested: whether to load the demo data, what the start banner says,
 * and the one line a start refused by its database prints. The demo accounts (admins included) share a published
 * password, so `prod` never gets them nor prints them; outside prod the logins are printed by every start that finds
 * them in the database (a later start too: the password is in the README anyway).
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
  /** The demo accounts are in the database (just loaded, or by an earlier start). */
  demoAccountsPresent: boolean;
}

export function startupBanner(f: BannerFacts): string[] {
  const base = `http://localhost:${f.port}`;
  const demoLoaded = f.decision === 'load' && f.environment !== 'prod';
  const lines = [
    `Asset-finance service (${f.environment}) serving on ${f.where}${demoLoaded ? ', demo data loaded' : ''}`,
    `  GraphQL:  ${base}/graphql${f.graphqlExplorer ? ' (GraphiQL in a browser)' : ''}`,
    `  REST:     ${base}/api/v1 (reference: ${base}/docs)`,
  ];
  if (f.environment !== 'prod' && (demoLoaded || f.demoAccountsPresent))
    lines.push(`  Demo logins (password ${DEMO_PASSWORD}): ${DEMO_LOGINS.join(', ')}`);
  if (f.decision === 'never-in-prod' && f.databaseEmpty)
    lines.push(
      '  The database is empty: load a catalogue with `npm run seed -- --file PATH` (demo data is never loaded in prod).',
    );
  return lines;
}

/** Where DATABASE_URL points, without its password: `host:port/database as user`. */
function target(databaseUrl: string): { where: string; database: string; user: string } {
  try {
    const url = new URL(databaseUrl);
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username);
    const user = decodeURIComponent(url.username) || 'the current user';
    return { where: `${url.hostname || 'localhost'}:${url.port || '5432'}`, database, user };
  } catch {
    return { where: 'DATABASE_URL', database: '', user: '' };
  }
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node reports a refused connection to a name with several addresses (localhost: ::1 and 127.0.0.1) as one
  // AggregateError whose parts carry the code.
  if (error instanceof AggregateError) return error.errors.map(codeOf).find((c) => c !== undefined);
  return undefined;
}

/**
 * The one line a start refused by its database prints (after `Cannot start: `), naming what to fix; null for an
 * error that is not about reaching the database (a bug: printed in full). Never contains the password.
 */
export function databaseStartFailure(error: unknown, databaseUrl: string | null): string | null {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (!databaseUrl) {
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return `cannot write the data directory: ${message} (check DATA_DIR and its owner)`;
    return null;
  }
  const { where, database, user } = target(databaseUrl);
  const sqlName = /^[a-z_][a-z0-9_]*$/.test(database) ? database : `"${database.replace(/"/g, '""')}"`;
  const fixUrl = 'check DATABASE_URL';
  switch (code) {
    case '28P01':
      return `PostgreSQL at ${where} refused the password for user "${user}" (${fixUrl})`;
    case '3D000':
      return `PostgreSQL at ${where} has no database "${database}": create it (createdb ${database}, or CREATE DATABASE ${sqlName};) or ${fixUrl}`;
    case '28000':
      return `PostgreSQL at ${where} refused user "${user}": ${message} (${fixUrl}, or the server's pg_hba.conf)`;
    case 'ECONNREFUSED':
      return `PostgreSQL at ${where} refused the connection: is it running there? (${fixUrl}: host and port)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `PostgreSQL host in DATABASE_URL not found (${where}): ${fixUrl}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `PostgreSQL at ${where} cannot be reached (${code}): check the network and DATABASE_URL`;
  }
  if (/connection timeout|timeout expired/i.test(message))
    return `PostgreSQL at ${where} did not answer within DATABASE_CONNECT_TIMEOUT_MS: check the network and DATABASE_URL`;
  // Any other refusal by the server (a class 08 connection error, a class 53 resource error such as too many clients).
  if (code && /^(08|53|57P03)/.test(code)) return `PostgreSQL at ${where} refused the connection: ${message}`;
  return null;
}
