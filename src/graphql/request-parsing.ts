/**
 * How /graphql reads a request's parameters, so that every request it cannot read is a 4xx with a JSON body
 * (`{errors: [{message, extensions: {code}}]}`), never a 500 or an empty answer:
 * - GET: `query`, `operationName`, `variables` and `extensions` from the query string; a parameter that is not JSON
 *   is a 400 naming it (graphql-yoga's own parser lets JSON.parse's SyntaxError escape: a masked 500).
 * - POST: a JSON body, `application/json` or `application/graphql+json`, the media type matched case-insensitively
 *   (RFC 9110 8.3.1) and its parameters (`; charset=utf-8`) ignored. Any other content type is a 415 naming the
 *   accepted ones (graphql-yoga answers an empty 415). The schema takes no uploads, so there is no multipart.
 * - The answer is JSON whatever the Accept header asks for (RFC 9110 12.5.1 lets a server disregard it): with no
 *   subscription, @defer or @stream there is nothing to stream, and graphql-yoga would answer an empty 406 to
 *   `Accept: text/html`, or an event stream to `text/event-stream`.
 * - Nothing a parser throws is echoed: the message is ours (graphql-yoga puts JSON.parse's own in
 *   `extensions.originalError`; `withoutOriginalError` strips that from whatever answer still carries it).
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import { processRegularResult, type GraphQLParams, type Plugin } from 'graphql-yoga';

const ACCEPTED_CONTENT_TYPES = ['application/json', 'application/graphql+json'] as const;

/** What a request carries; graphql-yoga checks each parameter's type next (a non-string query is its 400). */
type Params = GraphQLParams;

function requestError(message: string, status: number, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(',')[0].split(';')[0].trim().toLowerCase();
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw requestError(`${what} is not valid JSON.`, 400, 'BAD_REQUEST');
  }
}

function parseGet(request: Request): Params {
  const search = new URL(request.url, 'http://localhost').searchParams;
  const json = (name: string) => {
    const text = search.get(name);
    return text ? parseJson(text, `The ${name} query parameter`) : undefined;
  };
  return {
    query: search.get('query') || undefined,
    operationName: search.get('operationName') || undefined,
    variables: json('variables') as Params['variables'],
    extensions: json('extensions') as Params['extensions'],
  };
}

async function parsePost(request: Request): Promise<Params> {
  const type = mediaType(request.headers.get('content-type'));
  if (!(ACCEPTED_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw requestError(
      `Content-Type ${type ? `"${type}" is` : 'is missing:'} not supported; send the request as ${ACCEPTED_CONTENT_TYPES.join(' or ')}.`,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  // An empty body: Express has read the stream already and Yoga's Request would wait on it for ever, so it is not read.
  const text = request.headers.get('content-length') === '0' ? '' : await request.text();
  const body = parseJson(text, 'The request body');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    // Batching is off: one operation, one object.
    throw requestError('The request body must be a JSON object ({"query": ...}).', 400, 'BAD_REQUEST');
  }
  return body as Params;
}

function stripOriginalError(error: GraphQLError): GraphQLError {
  if (!error.extensions || !('originalError' in error.extensions)) return error;
  const { originalError: _dropped, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

export function graphqlRequestParsing(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      // Replaces graphql-yoga's parsers (registered before any user plugin) for both methods it reads.
      if (request.method === 'GET') setRequestParser(parseGet);
      else if (request.method === 'POST') setRequestParser(parsePost);
    },
    onResultProcess({ result, setResult, resultProcessor, setResultProcessor }) {
      if (resultProcessor !== processRegularResult) setResultProcessor(processRegularResult, 'application/json');
      const strip = (r: ExecutionResult): ExecutionResult =>
        r.errors?.some((e) => e.extensions && 'originalError' in e.extensions)
          ? { ...r, errors: r.errors.map((e) => stripOriginalError(e as GraphQLError)) }
          : r;
      if (Array.isArray(result)) setResult(result.map(strip));
      else if (result && typeof result === 'object' && 'errors' in result) setResult(strip(result as ExecutionResult));
    },
  };
}
