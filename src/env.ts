/**
 * Imported FIRST (src/main.ts, bench/index.ts), before any module loads graphql: graphql-js decides once, when it
 * loads, whether to run its development checks on every type test (NODE_ENV !== 'production'), a visible share of a
 * request's CPU (docs/performance.md); Express and Prisma read NODE_ENV too. The service runs as deployed unless
 * NODE_ENV is set explicitly (`NODE_ENV=development npm start`). GraphiQL and introspection follow
 * SERVICE_ENVIRONMENT, not this.
 */
export const NODE_ENV_SOURCE: 'defaulted to production' | 'from the environment' =
  process.env.NODE_ENV === undefined ? 'defaulted to production' : 'from the environment';
if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
