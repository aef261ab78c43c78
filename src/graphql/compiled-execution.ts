/**
 * Compiled execution for /graphql. graphql-jit turns one document into a function that runs exactly that selection
 * (resolvers called directly, leaves serialised inline, no per-field walk of the AST): a result list of a thousand
 * rows costs a fraction of graphql-js's generic `execute`. Everything before execution (parsing, our limits and cost
 * rules, validation) is unchanged: this plugin only swaps the executor.
 *
 * Safety:
 * - Only a document executed before is compiled (its second execution): compiling costs more than executing once,
 *   so a caller who sends a new document on every request gets graphql-js, never a compilation per request.
 * - Compiled functions are kept beside the parsed document (a WeakMap): Yoga's parse cache (an LRU keyed by the
 *   document's text) bounds how many there are, and one leaves with its document.
 * - graphql-jit cannot compile a document: graphql-js runs it (and every later execution of it), and the log says so.
 * - Variables graphql-jit refuses (it answers `errors` and no `data`): graphql-js runs the request instead, so the
 *   messages a client reads are graphql-js's, word for word.
 */
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, execute } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { logger } from '../lib/logger.ts';

/** Per document: operation name ('' for the only one) to its compiled query, or null when graphql-jit refused it. */
type Compiled = Map<string, CompiledQuery | null>;

export function compiledExecution(): Plugin {
  const byDocument = new WeakMap<DocumentNode, Compiled>();
  const seenOnce = new WeakSet<DocumentNode>();

  const compiledFor = (args: ExecutionArgs): CompiledQuery | null => {
    const name = args.operationName ?? '';
    let compiled = byDocument.get(args.document);
    if (compiled?.has(name)) return compiled.get(name) ?? null;
    if (!seenOnce.has(args.document)) {
      seenOnce.add(args.document);
      return null;
    }
    const outcome = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    const query = isCompiledQuery(outcome) ? outcome : null;
    if (!query)
      logger.warn('graphql.compile_failed', {
        operation: args.operationName ?? null,
        errors: (outcome as ExecutionResult).errors?.map((e) => e.message),
      });
    if (!compiled) byDocument.set(args.document, (compiled = new Map()));
    compiled.set(name, query);
    return query;
  };

  const run = (args: ExecutionArgs) => {
    const query = compiledFor(args);
    if (!query) return execute(args);
    const finish = (result: ExecutionResult) =>
      'data' in result ? result : (execute(args) as ExecutionResult | Promise<ExecutionResult>);
    const result = query.query(args.rootValue, args.contextValue, args.variableValues);
    return result instanceof Promise ? result.then(finish) : finish(result);
  };

  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(run as never);
    },
  };
}
