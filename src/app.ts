/**
 * The HTTP application: GraphQL at /graphql (GraphiQL outside prod), the REST contract at /api/v1.
 * createApp() takes its database and clock from the caller, so tests run the real app on their own database.
 */
import express, { type Request, type Response } from 'express';
import type { Config } from './lib/config.ts';
import type { Database } from './lib/db.ts';
import type { Clock } from './lib/clock.ts';
import type { AppDeps } from './graphql/context.ts';
import { createDeps } from './app-services.ts';
import { createRestRouter } from './rest/router.ts';
import { openApiDocument } from './rest/openapi/document.ts';
import { schema } from './graphql-server/schema.ts';
import { createGraphQLServer, GRAPHIQL_PAGE } from './graphql-server/server.ts';
import { readinessHandler } from './lib/readiness.ts';
import { cors } from './http/cors.ts';
import { graphqlBody } from './http/body-limit.ts';
import { metricsHandler } from './http/metrics.ts';
import { apiReference } from './http/api-reference.ts';
import { graphiqlExplorer, type GraphiQLExplorer } from './http/graphiql.ts';
import { requestObservability } from './http/request-log.ts';
import { createMcpHandlers, MCP_PATH } from './mcp/server.ts';
import { billingHttp } from './webhooks/billing.ts';
import { createDeliveryWorker, transportsFromConfig, type DeliveryWorker } from './modules/notifications/index.ts';
import { createRepricingWorker, type RepricingWorker } from './modules/repricing/index.ts';
import { repricingThread } from './repricing-thread.ts';

export interface App {
  express: express.Express;
  deps: AppDeps;
  /** Push delivery: not started here; main.ts starts it after listen and stops it on shutdown. */
  notifications: DeliveryWorker;
  /** Re-pricing of saved scenarios after catalogue changes: started and stopped by main.ts like `notifications`. */
  repricing: RepricingWorker;
  /** GraphiQL outside prod (null in prod); main.ts prepares its assets after listen. */
  explorer: GraphiQLExplorer | null;
}

export function createApp(options: { config: Config; database: Database; clock?: Clock }): App {
  const deps = createDeps(options.database.prisma, options.config, options.clock);

  const yoga = createGraphQLServer(deps);

  const app = express();
  app.disable('x-powered-by');
  // req.ip (the sign-in throttle's address) honours X-Forwarded-For only from the proxies TRUST_PROXY names.
  app.set('trust proxy', options.config.trustProxy);
  app.set('etag', false);
  app.use(requestObservability({ log: options.config.requestLog }));
  app.use(cors(options.config.corsAllowedOrigins));
  const explorer = options.config.graphqlExplorer ? graphiqlExplorer('/graphql', GRAPHIQL_PAGE) : null;
  // A browser opening /graphql gets GraphiQL's page; its assets are under /graphiql/assets/.
  if (explorer) app.use(explorer.router);
  // The endpoint only: any path below it (/graphql/x) is the JSON 404 below, like every other unknown path.
  app.all('/graphql', ...graphqlBody(options.config.maxBodyBytes), yoga as unknown as express.RequestHandler);
  // Processor webhooks read the raw body (signatures are over its bytes), so they come before any JSON parsing.
  app.use(billingHttp(deps));
  // The REST contract as an OpenAPI 3.1 document (src/rest/openapi/): public, like the docs it describes.
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  app.use('/api/v1', createRestRouter(schema, deps));
  // The interactive reference of that document (Swagger UI, served offline), in prod too (docs/operations.md).
  app.use(apiReference());
  // Where a newcomer starts: what this is and where to go next.
  app.get('/', (_req, res) => {
    res.json({
      service: 'Asset-finance pricing and approval service',
      links: {
        graphql: '/graphql',
        ...(options.config.graphqlExplorer ? { graphiql: '/graphql (open in a browser)' } : {}),
        rest: '/api/v1',
        openapi: '/api/v1/openapi.json',
        docs: '/docs',
        health: '/healthz',
        mcp: '/mcp (AI assistants, Model Context Protocol)',
        metrics: '/metrics',
        readiness: '/readyz',
      },
    });
  });
  // AI assistants (Model Context Protocol, docs/mcp.md): `mcp` API tokens only; the same body limit.
  const mcp = createMcpHandlers(schema, deps);
  app.post(MCP_PATH, mcp.post);
  app.all(MCP_PATH, mcp.notAllowed);
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', readinessHandler(deps.prisma, options.config.readinessTimeoutMs));
  app.get(
    '/metrics',
    metricsHandler({
      token: options.config.metricsToken,
      production: options.config.environment === 'prod',
      poolState: () => options.database.poolState(),
    }),
  );
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'Not found.' });
  });
  const notifications = createDeliveryWorker({
    prisma: deps.prisma,
    clock: deps.clock,
    transports: transportsFromConfig(options.config),
    pollIntervalMs: options.config.notificationPollIntervalMs,
    sendTimeoutMs: options.config.pushTimeoutMs + 1000,
  });
  const inline = createRepricingWorker(deps);
  // SCENARIO_REPRICE_WORKER picks what start() starts; runOnce() always runs a pass here (tests, the bench).
  const mode = options.config.scenarioRepriceWorker;
  const repricing: RepricingWorker =
    mode === 'inline'
      ? inline
      : mode === 'thread'
        ? { ...repricingThread(options.config), runOnce: inline.runOnce }
        : { start() {}, stop: async () => {}, runOnce: inline.runOnce };
  return { express: app, deps, notifications, repricing, explorer };
}
