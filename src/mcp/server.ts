/**
 * POST /mcp: the Model Context Protocol endpoint AI assistants connect to (Streamable HTTP, stateless: a new server
 * and transport per request, so any process answers any call and nothing lives in memory between calls).
 *
 * Order, as on /api/v1: credentials first (401 without a usable token, 403 for anything but an `mcp` API token),
 * then the body (limit MAX_BODY_BYTES), then the connection (recorded or renamed by the `initialize` handshake),
 * then the protocol. Tools run GraphQL operations in-process with the token's caller (tools/run.ts).
 */
import type express from 'express';
import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildContext, type AppDeps, type Context } from '../graphql/context.ts';
import { bodyReader } from '../http/body-limit.ts';
import { retryableReply } from '../lib/database-errors.ts';
import { UnauthenticatedError } from '../lib/errors.ts';
import { logger } from '../lib/logger.ts';
import type { Caller } from '../lib/caller.ts';
import { cleanClientName, recordConnection } from '../modules/mcp-connections/index.ts';
import { tools } from './tools/index.ts';
import { type CompiledTool, compileTools, runTool } from './tools/run.ts';

/** Where the app serves it (POST only); the OpenAPI document describes it beside the REST table's operations. */
export const MCP_PATH = '/mcp';

export const MCP_SERVER_NAME = 'asset-finance-service';
const MCP_SERVER_VERSION = '1.0.0';

export const NOT_AN_ASSISTANT_TOKEN =
  'Only AI-assistant API tokens (origin mcp) are accepted here; sessions and other API tokens are not.';

const INSTRUCTIONS =
  'Asset-finance pricing and approvals for Australian brokers. Find the asset with search_assets (its id is the ' +
  "deal's asset_value), then run_matrix_calculator to see which financiers would approve and price the deal, " +
  'cheapest first (run_calculator prices only, run_matrix places only). Pricing runs use the daily allowances of ' +
  "the user who connected you; when one is spent, the tool says so: tell the user, don't retry.";

/**
 * The MCP SDK, loaded by the first POST /mcp: it takes over half a second to load, which every process (and every
 * test file) would otherwise pay at start whether or not an assistant ever connects.
 */
interface Sdk {
  McpServer: typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
  CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
  InitializeRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').InitializeRequestSchema;
}
let sdk: Sdk;
let loading: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, http, types]) => {
    sdk = {
      McpServer: server.McpServer,
      StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
      CallToolRequestSchema: types.CallToolRequestSchema,
      InitializeRequestSchema: types.InitializeRequestSchema,
    };
    return sdk;
  });
  return loading;
}

/** JSON-RPC error body for what the transport never sees (a body that is not JSON). */
const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** The messages of a POST body (one message or, in older protocol versions, a batch). */
function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** The client's name from an `initialize` request in the body, cleaned; null when the body holds none. */
function handshakeName(messages: unknown[]): string | null {
  for (const message of messages) {
    const parsed = sdk.InitializeRequestSchema.safeParse(message);
    if (parsed.success) return cleanClientName(parsed.data.params.clientInfo.name);
  }
  return null;
}

/**
 * The tools this request calls by name (a `read` token sees a write tool only when it calls one: to be refused).
 * Counted loosely (any message whose method is tools/call), so a malformed call cannot slip past the one-call rule.
 */
function calledTools(messages: unknown[]): { names: Set<string>; count: number } {
  const names = new Set<string>();
  let count = 0;
  for (const message of messages) {
    if ((message as { method?: unknown } | null)?.method !== 'tools/call') continue;
    count += 1;
    const parsed = sdk.CallToolRequestSchema.safeParse(message);
    if (parsed.success) names.add(parsed.data.params.name);
  }
  return { names, count };
}

/** Tool calls one POST may carry (a JSON-RPC batch): one, so a batch cannot run one metered tool many times. */
export const MAX_TOOL_CALLS_PER_REQUEST = 1;

/**
 * Most array items and object members one tool call's arguments may hold (the SDK's own bound, checked before it
 * validates them against the tool's schema): the longest real call, a deal with its preferred financiers, is a few
 * hundred. Validation reports every wrong item, so an unbounded list would cost time and an answer in proportion.
 */
const MAX_TOOL_INPUT_ELEMENTS = 1_000;

function serverFor(schema: GraphQLSchema, compiled: CompiledTool[], ctx: Context, called: Set<string>): McpServer {
  const server = new sdk.McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  const caller = ctx.caller!;
  for (const entry of compiled) {
    const { tool } = entry;
    // Write tools are not offered to a `read` token; called anyway, the operation's own scope check refuses it
    // (a tool error with the policy's sentence), before anything is read or written.
    if (tool.write && caller.scope !== 'read_write' && !called.has(tool.name)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: entry.arguments.schema,
        annotations: {
          title: tool.title,
          readOnlyHint: !tool.write,
          destructiveHint: false,
          openWorldHint: false,
        },
      },
      // A fresh per-call memo, as each REST request gets; the caller (and its connection) is this request's.
      (args: Record<string, unknown>) => runTool(schema, entry, { ...ctx, cache: new Map() }, args),
    );
  }
  return server;
}

/** The caller as a tool sees it: the token's caller, marked with the connection it came through. */
function assistantContext(ctx: Context, caller: Caller, connection: { id: number; client_name: string }): Context {
  const assistant: Caller = {
    ...caller,
    assistant: { connectionId: connection.id, clientName: connection.client_name },
  };
  if (ctx.auth.kind !== 'caller') throw new Error('assistantContext() needs a caller');
  return { ...ctx, auth: { ...ctx.auth, caller: assistant }, caller: assistant };
}

export interface McpHandlers {
  post: express.RequestHandler;
  /** GET and DELETE /mcp: a stateless server keeps no stream and no session to end (405, Allow: POST). */
  notAllowed: express.RequestHandler;
}

/**
 * The tool table compiled against a schema, shared by every app made on it (as the REST table is, src/rest/router.ts):
 * compiling depends on the two alone, and a process that makes many apps (the tests) compiles once.
 */
const compiledTools = new WeakMap<GraphQLSchema, CompiledTool[]>();

export function createMcpHandlers(schema: GraphQLSchema, deps: AppDeps): McpHandlers {
  let compiled = compiledTools.get(schema);
  if (!compiled) {
    compiled = compileTools(schema, tools);
    compiledTools.set(schema, compiled);
  }
  // The one body limit and reader REST and /graphql use (src/http/body-limit.ts): a failure is the value, not a throw.
  const jsonBody = bodyReader(deps.config.maxBodyBytes, 'json');
  const readBody = (req: Request, res: Response): Promise<unknown> =>
    jsonBody(req, res).then(
      () => null,
      (err: unknown) => err,
    );

  const post = async (req: Request, res: Response): Promise<void> => {
    try {
      await loadSdk();
      const ctx = await buildContext(deps, {
        authorization: req.get('authorization'),
        serviceClient: req.get('x-service-client'),
        clientAddress: () => req.ip,
      });
      if (ctx.auth.kind !== 'caller') {
        res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: new UnauthenticatedError().message });
        return;
      }
      const caller = ctx.auth.caller;
      if (caller.via !== 'api_token' || caller.origin !== 'mcp') {
        res.status(403).json({ error: NOT_AN_ASSISTANT_TOKEN });
        return;
      }
      const bodyError = (await readBody(req, res)) as { type?: string; status?: number } | null;
      if (bodyError) {
        if (bodyError.type === 'entity.too.large') res.status(413).json({ error: 'Request body is too large.' });
        else if (bodyError.type === 'entity.parse.failed') res.status(400).json(jsonRpcError(-32700, 'Parse error.'));
        else res.status(bodyError.status ?? 400).json({ error: 'The request body could not be read.' });
        return;
      }
      const messages = messagesOf(req.body);
      const called = calledTools(messages);
      if (called.count > MAX_TOOL_CALLS_PER_REQUEST) {
        res.status(400).json(jsonRpcError(-32600, `At most ${MAX_TOOL_CALLS_PER_REQUEST} tool call per request.`));
        return;
      }
      const connection = await recordConnection(ctx, caller, handshakeName(messages));
      if (connection.revoked_at) {
        res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: new UnauthenticatedError().message });
        return;
      }
      const server = serverFor(schema, compiled, assistantContext(ctx, caller, connection), called.names);
      const transport = new sdk.StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      if (res.headersSent) return;
      const retry = retryableReply([error], 'mcp');
      if (retry) {
        const [status, body, headers] = retry;
        res.status(status).set(headers).json(body);
        return;
      }
      logger.error('mcp.unhandled', { message: (error as Error)?.message, stack: (error as Error)?.stack });
      res.status(500).json(jsonRpcError(-32603, 'Internal server error.'));
    }
  };

  const notAllowed = (_req: Request, res: Response): void => {
    res.status(405).set('Allow', 'POST').json(jsonRpcError(-32000, 'Method not allowed.'));
  };
  return { post: post as express.RequestHandler, notAllowed };
}
