/**
 * The HTTP application: GraphQL at /graphql (GraphiQL outside prod), the REST contract at /api/v1.
 * createApp() takes its database and clock from the caller, so tests run the real app on their own database.
 */
import express, { type Request, type Response } from 'express';
import { createYoga } from 'graphql-yoga';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Config } from './config.ts';
import type { Database } from './lib/db.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { buildContext, type AppDeps } from './graphql/context.ts';
import { createServices } from './modules/services.ts';
import { createRestRouter } from './rest/router.ts';
import { schema } from './schema.ts';
import { graphqlLimits } from './graphql/limits.ts';
import { storableTextOnly } from './graphql/input-text.ts';

export interface App {
  express: express.Express;
  deps: AppDeps;
}

export function createApp(options: { config: Config; database: Database; clock?: Clock }): App {
  const deps: AppDeps = {
    prisma: options.database.prisma,
    config: options.config,
    clock: options.clock ?? systemClock,
    services: createServices(options.database.prisma),
  };

  const yoga = createYoga<{ req: Request; res: Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: options.config.graphqlExplorer ? { title: 'Asset-finance pricing and approvals' } : false,
    landingPage: false,
    batching: false,
    maskedErrors: true,
    logging: false,
    context: ({ request }) => buildContext(deps, {
      authorization: request.headers.get('authorization'),
      serviceClient: request.headers.get('x-service-client'),
    }),
    plugins: [
      graphqlLimits(),
      storableTextOnly(),
      ...(options.config.graphqlExplorer ? [] : [{ onValidate: ({ addValidationRule }: any) => addValidationRule(NoSchemaIntrospectionCustomRule) }]),
    ],
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use('/graphql', yoga as unknown as express.RequestHandler);
  app.use('/api/v1', createRestRouter(schema, deps));
  app.get('/healthz', (_req, res) => { res.json({ ok: true }); });
  app.use((_req: Request, res: Response) => { res.status(404).json({ error: 'Not found.' }); });
  return { express: app, deps };
}
