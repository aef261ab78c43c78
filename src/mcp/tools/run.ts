/**
 * Compiles the tool table against the schema once, at start, with the REST bridge's compiler, and runs a tool's
 * operation with the bridge's executor: the same coercion (failures name the field), the same in-process execution
 * with the caller's context, so a tool is refused, metered and answered exactly as the REST endpoint would be.
 */
import { type GraphQLSchema, isObjectType } from 'graphql';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../graphql/context.ts';
import { unstorableTextErrors } from '../../graphql/input-text.ts';
import { retryableDatabaseFailure } from '../../lib/database-errors.ts';
import type { FieldError } from '../../lib/errors.ts';
import { logger } from '../../lib/logger.ts';
import { type CompiledRoute, coerceVariables, compileRoute, refusedEarly, run } from '../../rest/bridge.ts';
import { plain, type ToolDefinition, type ToolResult } from './define-tool.ts';
import { type ToolArguments, toolArguments } from './schema.ts';

export interface CompiledTool {
  tool: ToolDefinition;
  operation: CompiledRoute;
  arguments: ToolArguments;
}

/**
 * Every tool whose document validates. A drifted document stops the boot, as a REST route's does, except a
 * `provisional` tool's (written against fields another module is adding), which is left out with a log line.
 */
export function compileTools(schema: GraphQLSchema, tools: readonly ToolDefinition[]): CompiledTool[] {
  const compiled: CompiledTool[] = [];
  for (const tool of tools) {
    try {
      const operation = compileRoute(schema, {
        method: 'post',
        path: `/mcp tool ${tool.name}`,
        document: tool.document,
        respond: () => undefined,
      });
      compiled.push({
        tool,
        operation,
        arguments: toolArguments(schema, operation.operation, tool.arguments, tool.required),
      });
    } catch (error) {
      if (!tool.provisional) throw error;
      logger.warn('mcp.tool_unavailable', { tool: tool.name, reason: (error as Error).message });
    }
  }
  return compiled;
}

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError: true } : {}),
});

function fieldErrorsText(message: string, errors: readonly FieldError[]): string {
  return [message, ...errors.map((e) => `${e.field}: ${e.messages.join(' ')}`)].join('\n');
}

/** A result type implementing the GraphQL `Error` interface is a refusal: the assistant gets its sentence. */
function isErrorResult(schema: GraphQLSchema, result: ToolResult): boolean {
  const type = schema.getType(result.__typename);
  return isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Error');
}

/** A typed error result as the tool's answer: cap_hit, entitlement_required, forbidden ... (the service's sentence). */
function refusal(result: ToolResult): CallToolResult {
  // cap_hit, entitlement_required, forbidden ...: the service's own sentence (cap_hit's `message` is the one to show).
  // version_conflict: the card's version now is in the text too, so the retry needs no guess.
  const body =
    result.__typename === 'ValidationError'
      ? fieldErrorsText(result.message, result.errors)
      : typeof result.current_version === 'number'
        ? `${result.message}\ncurrent_version: ${result.current_version} (re-read the card, then send it as expected_version)`
        : result.message;
  return {
    ...text(body, true),
    structuredContent: { error: result.code, ...plain(result) },
  };
}

export async function runTool(
  schema: GraphQLSchema,
  compiled: CompiledTool,
  ctx: Context,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  // A caller the operation's scopes refuse (a `read` token on a write tool) is refused before its arguments are read.
  const refused = refusedEarly(compiled.operation, ctx);
  if (refused) return refusal(refused);
  // Text PostgreSQL cannot store is refused before any field sees it, as on the other surfaces.
  const unstorable = unstorableTextErrors(args, 'arguments');
  if (unstorable.length) return text(fieldErrorsText('Invalid arguments.', unstorable), true);
  const coerced = coerceVariables(compiled.operation, compiled.arguments.variables(args));
  if ('errors' in coerced) return text(fieldErrorsText('Invalid arguments.', coerced.errors), true);
  const outcome = await run(compiled.operation, ctx, coerced.values);
  if ('bug' in outcome) {
    const retryable = retryableDatabaseFailure(...outcome.bug);
    if (retryable) return text(retryable.message, true);
    logger.error('mcp.graphql_errors', {
      tool: compiled.tool.name,
      errors: outcome.bug.map((e) => ({ message: e.message, path: e.path })),
    });
    return text('Internal error: the tool could not run.', true);
  }
  const result = outcome.result;
  if (isErrorResult(schema, result)) return refusal(result);
  const answer = compiled.tool.answer ? compiled.tool.answer(result) : plain(result);
  return {
    content: [{ type: 'text', text: JSON.stringify(answer) }],
    ...(answer !== null && typeof answer === 'object' && !Array.isArray(answer)
      ? { structuredContent: answer as Record<string, unknown> }
      : {}),
  };
}
