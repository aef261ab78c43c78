/**
 * Compiled execution (graphql-jit): the REST bridge compiles each route's document at start (src/rest/bridge.ts).
 * This plugin would do the same for /graphql, and is deliberately NOT registered there: under graphql-jit the
 * dataloaders of nested lists batch one level later (the asset tree's query test: 22 statements instead of 15), and
 * on the demo catalogue it saved no measurable CPU per request. Kept, tested, for when graphql-jit batches like
 * graphql-js. What follows is how it behaves when registered.
 *
 * For /graphql. graphql-jit turns one document into a function that runs exactly that selection
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
 * - A request that leaves out a declared variable runs on graphql-js. graphql-js then leaves the argument or input
 *   field out ("unchanged" on a patch); graphql-jit passes null ("clear it"). Hot requests send every variable.
 */
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, Kind, execute } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { logger } from '../lib/logger.ts';

/** Per document: operation name ('' for the only one) to its compiled query, or null when graphql-jit refused it. */
type Compiled = Map<string, CompiledQuery | null>;

/** The variables an operation declares without a default: leaving one out must reach resolvers as "absent". */
export function variablesWithoutDefault(document: DocumentNode, operationName?: string | null): string[] {
  const names: string[] = [];
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName && def.name?.value !== operationName) continue;
    for (const v of def.variableDefinitions ?? []) if (!v.defaultValue) names.push(v.variable.name.value);
  }
  return names;
}

/** True when a declared variable is absent: graphql-jit would turn it into null, so graphql-js must run. */
export function leavesOutAVariable(
  names: readonly string[],
  values: Record<string, unknown> | null | undefined,
): boolean {
  for (const name of names) if (values?.[name] === undefined) return true;
  return false;
}

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

  const declared = new WeakMap<DocumentNode, string[]>();
  const run = (args: ExecutionArgs) => {
    const query = compiledFor(args);
    if (!query) return execute(args);
    let names = declared.get(args.document);
    if (!names) declared.set(args.document, (names = variablesWithoutDefault(args.document, args.operationName)));
    if (leavesOutAVariable(names, args.variableValues)) return execute(args);
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
