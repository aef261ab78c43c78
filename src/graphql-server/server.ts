/**
 * The GraphQL endpoint (graphql-yoga). Work per request is bounded by ./limits.ts; CORS and the body limit are
 * Express middleware shared with REST (src/http/), so Yoga's own CORS is off. Unexpected errors are masked in every
 * environment (no message, no stack: `isDev` is pinned off whatever NODE_ENV says) and logged like REST's.
 * In prod, introspection is refused and graphql-js's "Did you mean ...?" suggestions are cut from every message.
 */
import { createYoga, maskError, type Plugin } from 'graphql-yoga';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult } from 'graphql';
import type { Request, Response } from 'express';
import { buildContext, type AppDeps, type Context } from '../graphql/context.ts';
import { graphqlLimits } from './limits.ts';
import { storableTextOnly } from '../graphql/input-text.ts';
import { connectionCursorsOnly } from '../graphql/cursors.ts';
import { compiledExecution } from '../graphql/compiled-execution.ts';
import { graphqlRequestParsing } from '../graphql/request-parsing.ts';
import { logger } from '../lib/logger.ts';
import { logRetryable, retryableDatabaseFailure } from '../lib/database-errors.ts';
import { schema } from './schema.ts';

/** graphql-js appends these to validation and variable errors; they name fields the schema does not advertise. */
const SUGGESTION = /\s*Did you mean .+\?$/s;

function withoutSuggestion(error: GraphQLError): GraphQLError {
  if (!SUGGESTION.test(error.message)) return error;
  return new GraphQLError(error.message.replace(SUGGESTION, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: error.extensions,
  });
}

function blockFieldSuggestions(): Plugin {
  const strip = (result: ExecutionResult): ExecutionResult =>
    result.errors?.length
      ? { ...result, errors: result.errors.map((e) => withoutSuggestion(e as GraphQLError)) }
      : result;
  return {
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length) setResult(result.map((e) => withoutSuggestion(e as GraphQLError)));
      },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) setResult(result.map(strip));
      else if (result && typeof result === 'object' && 'errors' in result) setResult(strip(result as ExecutionResult));
    },
  };
}

function noIntrospection(): Plugin {
  return { onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) };
}

/** What GraphiQL opens with: how to sign in, then a first question to ask. */
const EXPLORER_EXAMPLE = `# Asset-finance pricing and approvals: GraphQL explorer
#
# 1. Sign in: run the \`SignIn\` operation below (the demo users and password are in the README).
# 2. Copy \`access\` from the answer into the Headers tab:  {"Authorization": "Bearer <access>"}
# 3. Run \`Me\`, then explore: the Docs panel (top left) describes every type and field.

mutation SignIn {
  login(email: "broker.admin@demo.test", password: "demo-password-1") {
    __typename
    ... on TokenPair { access refresh }
    ... on Error { message }
  }
}

query Me {
  me { __typename ... on User { email first_name organisation_id } }
}
`;

/** GraphiQL's page (src/http/graphiql.ts serves it and its assets; Yoga's own inline page is not used). */
export const GRAPHIQL_PAGE = {
  title: 'Asset-finance pricing and approvals',
  defaultQuery: EXPLORER_EXAMPLE,
  headers: JSON.stringify({ Authorization: 'Bearer <paste access token here>' }, null, 2),
};

export function createGraphQLServer(deps: AppDeps) {
  const explorer = deps.config.graphqlExplorer;
  return createYoga<{ req: Request; res: Response }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL (outside prod) is answered before Yoga sees the request, with its assets as separate cacheable files.
    graphiql: false,
    landingPage: false,
    // The body is read and bounded by graphqlBody (src/http/body-limit.ts, MAX_BODY_BYTES) before Yoga sees it.
    // Yoga's own limit would turn that Buffer back into a stream piped through a counting transform on every POST
    // (a real share of a request's CPU) to apply a second limit of its own (25 MB): MAX_BODY_BYTES is the only one.
    maxRequestBodySize: false,
    batching: false,
    multipart: false,
    cors: false,
    logging: false,
    maskedErrors: {
      isDev: false,
      maskError(error, message) {
        const retryable = retryableDatabaseFailure(error);
        if (retryable) {
          // An outage, back-pressure or a write conflict, not a bug: 503 (429) with Retry-After, as REST answers it.
          logRetryable('graphql', retryable, error);
          return new GraphQLError(retryable.message, {
            path: error instanceof GraphQLError ? error.path : undefined,
            extensions: {
              code: retryable.code,
              http: { status: retryable.status, headers: { 'Retry-After': String(retryable.retryAfterSeconds) } },
            },
          });
        }
        const masked = maskError(error, message, false);
        if (masked !== error) {
          // Unexpected: a bug or an outage, never the caller's input. The masked answer names nothing; the log does.
          const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
          logger.error('graphql.unexpected_error', {
            message: original instanceof Error ? original.message : String(original),
            stack: original instanceof Error ? original.stack : undefined,
            path: error instanceof GraphQLError ? error.path : undefined,
          });
        }
        return masked;
      },
    },
    context: ({ request, req }) =>
      buildContext(deps, {
        authorization: request.headers.get('authorization'),
        serviceClient: request.headers.get('x-service-client'),
        clientAddress: () => req?.ip,
      }),
    plugins: [
      graphqlRequestParsing(),
      graphqlLimits(),
      storableTextOnly(),
      connectionCursorsOnly(),
      compiledExecution(),
      ...(explorer ? [] : [noIntrospection(), blockFieldSuggestions()]),
    ],
  });
}
