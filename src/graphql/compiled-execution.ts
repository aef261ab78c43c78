/**
 * Compiled execution (docs/graphql.md, "Compiled execution"): graphql-jit compiles a document into a function that
 * runs exactly its selection, so a long list of result rows is not walked field by field. Both surfaces use it:
 * - REST compiles every route's document once, at start (src/rest/bridge.ts);
 * - /graphql compiles a document on its second execution when every root field it selects is marked
 *   COMPILED_EXECUTION (the engine runs, whose answers are long lists of rows), run by @envelop/graphql-jit (below).
 * Wherever graphql-jit and graphql-js could answer differently, graphql-js runs instead, so an answer never depends
 * on which executor produced it.
 */
import { getDocumentString } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import {
  GraphQLError,
  GraphQLID,
  Kind,
  TypeInfo,
  execute,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isEnumType,
  isLeafType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type Source,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from './context.ts';

/**
 * Field extension of a Query field: /graphql runs an operation compiled when every root field it selects carries it
 * and nothing it selects is loaded by the Prisma plugin (below). Given to the engine runs (calculate, matrix,
 * matrixCalculator): their rows are built by the engines, and what a row loads besides (its financier, its approval,
 * its rate bracket) goes through dataloaders, which both executors batch alike.
 */
export const COMPILED_EXECUTION = 'compiledExecution';

/**
 * The Prisma plugin's mark on a field it loads through its own selection (a relation such as RateBracket.product).
 * graphql-jit settles nested promises in another order than graphql-js, and those loads then batch less: a Matrix
 * Calculator row's rate bracket, its product and that product's brackets take more statements compiled.
 */
const PRISMA_SELECTION = 'pothosPrismaSelect';

/** An operation graphql-jit compiled. */
export interface CompiledOperation {
  /** True when graphql-jit writes this operation's leaves as its resolvers return them (`plainLeavesOnly`). */
  leavesAsResolved: boolean;
  /**
   * Runs the operation, or answers null where graphql-js must run it instead:
   * - a declared variable left out: graphql-js leaves the argument or input field out ("unchanged" on a patch),
   *   graphql-jit would pass null ("clear it");
   * - variables graphql-jit refuses (errors, no data): graphql-js's messages are the ones clients and logs know.
   */
  run(context: unknown, variables: Readonly<Record<string, unknown>>): Promise<ExecutionResult | null>;
}

/** `operation` of `document` compiled by graphql-jit, or null when graphql-jit cannot compile it. */
export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): CompiledOperation | null {
  const leavesAsResolved = plainLeavesOnly(schema, document);
  const jit = compileQuery(schema, document, operation.name?.value, {
    disableLeafSerialization: leavesAsResolved,
  });
  if (!isCompiledQuery(jit)) return null;
  const positions = sourcePositions(document.loc?.source);
  const declared = (operation.variableDefinitions ?? [])
    .filter((d) => !d.defaultValue)
    .map((d) => d.variable.name.value);
  return {
    leavesAsResolved,
    run: async (context, variables) => {
      if (declared.some((name) => variables[name] === undefined)) return null;
      const out = await jit.query(undefined, context, variables);
      if (!('data' in out)) return null;
      return out.errors?.length ? { ...out, errors: out.errors.map((e) => locatedInSource(e, positions)) } : out;
    },
  };
}

/** Where each line of a document's source starts, worked out on first use, once per compiled operation. */
interface SourcePositions {
  source: Source;
  offset(line: number, column: number): number;
}

function sourcePositions(source: Source | undefined): SourcePositions | undefined {
  if (!source) return undefined;
  let lineStarts: number[] | undefined;
  return {
    source,
    offset(line, column) {
      if (!lineStarts) {
        lineStarts = [0];
        for (const newline of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(newline.index + newline[0].length);
      }
      return (lineStarts[line - 1] ?? 0) + column - 1;
    },
  };
}

/**
 * graphql-jit's errors carry their `locations` as numbers but not the document positions graphql-js's errors are
 * built from, so an error rebuilt from them (Yoga's masking of an unexpected error) lost its locations. They are
 * made graphql-js errors here, positioned in the document's source, as graphql-js itself reports them.
 */
function locatedInSource(error: GraphQLError, positions: SourcePositions | undefined): GraphQLError {
  if (!positions || error.nodes || error.positions || !error.locations?.length) return error;
  return new GraphQLError(error.message, {
    source: positions.source,
    positions: error.locations.map((l) => positions.offset(l.line, l.column)),
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * True when every leaf `document` selects is a value its resolver already returns in its JSON form, so graphql-jit
 * may write it as returned instead of calling its type's `serialize` (`disableLeafSerialization`, which only applies to
 * enums and the built-in scalars; custom scalars such as Decimal and DateTime are serialised either way):
 * - Int, Float, String and Boolean: `serialize` returns a value of the right type unchanged, and the schema's
 *   resolvers return numbers, strings and booleans by their TypeScript types;
 * - an enum whose values are their own names (TimezoneSource is not: its `none` is "" inside);
 * - never ID, whose `serialize` turns a number into a string.
 * Why: graphql-jit's serialising leaf check allocates the leaf's error location and path on every call, whether or
 * not there is an error: garbage for every leaf of every row, which a long calculator answer multiplies.
 */
export function plainLeavesOnly(schema: GraphQLSchema, document: DocumentNode): boolean {
  return !someField(schema, document, (typeInfo) => {
    const type = getNamedType(typeInfo.getType());
    if (!type || !isLeafType(type)) return false;
    return type.name === GraphQLID.name || (isEnumType(type) && type.getValues().some((v) => v.value !== v.name));
  });
}

/** True when `test` holds at some field `document` selects (fragments included), with its type information. */
function someField(schema: GraphQLSchema, document: DocumentNode, test: (typeInfo: TypeInfo) => boolean): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        if (!found && test(typeInfo)) found = true;
      },
    }),
  );
  return found;
}

/** What /graphql knows of an operation it has executed: how often, and its compiled form once it has one. */
interface Seen {
  executions: number;
  /** Undefined until compiled (from the second execution); null when graphql-jit could not compile it. */
  compiled: CompiledOperation | null | undefined;
  /** Called when the allowance drops the compiled form (the plugin's entry for it goes too). */
  dropped?: () => void;
}

/** Per operation of a document Yoga has cached (its parse cache hands back the same AST for the same text). */
const seenOperations = new WeakMap<OperationDefinitionNode, Seen | null>();

/**
 * What compiled execution may cost. A compiled operation's memory and compile time grow with its document (and the
 * document size limit bounds both), so a caller sending many distinct engine documents twice each must not buy
 * unbounded memory, nor a compilation per request by cycling through more documents than are held: at most `capacity`
 * operations stay compiled (the least recently run loses its compiled form first), and at most `perMinute` compilations
 * start in any minute; past either, the operation runs on graphql-js. A dashboard sends a handful of engine documents.
 */
export class CompileAllowance {
  private readonly held = new Map<OperationDefinitionNode, Seen>();
  private readonly started: number[] = [];

  constructor(
    private readonly capacity: number,
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True when a compilation may start now (it is then counted). */
  mayCompile(): boolean {
    const now = this.now();
    while (this.started.length > 0 && this.started[0] <= now - 60_000) this.started.shift();
    if (this.started.length >= this.perMinute) return false;
    this.started.push(now);
    return true;
  }

  /** `operation` ran compiled: it becomes the most recently run; beyond capacity, the least recently run is dropped. */
  ran(operation: OperationDefinitionNode, seen: Seen): void {
    this.held.delete(operation);
    this.held.set(operation, seen);
    if (this.held.size <= this.capacity) return;
    const [oldest, dropped] = this.held.entries().next().value as [OperationDefinitionNode, Seen];
    this.held.delete(oldest);
    dropped.compiled = undefined;
    dropped.dropped?.();
  }

  /** Operations holding a compiled form (tests read it). */
  get size(): number {
    return this.held.size;
  }
}

const allowance = new CompileAllowance(100, 30);

/** Executions of eligible operations on /graphql, by executor (tests read it). */
export const graphqlExecutions = { compiled: 0, graphqlJs: 0 };

/**
 * True when `operation` is a query whose root selections are all fields marked COMPILED_EXECUTION and `document`
 * selects no field the Prisma plugin loads.
 */
function eligible(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'query') return false;
  const roots = schema.getQueryType()?.getFields() ?? {};
  const marked = operation.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && roots[s.name.value]?.extensions?.[COMPILED_EXECUTION] === true,
  );
  return marked && !someField(schema, document, (typeInfo) => !!typeInfo.getFieldDef()?.extensions?.[PRISMA_SELECTION]);
}

/** Compiled, or null when graphql-jit cannot compile it, or throws trying (the request then runs on graphql-js). */
function compiledOrNull(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): CompiledOperation | null {
  try {
    return compileOperation(schema, document, operation);
  } catch {
    return null;
  }
}

/** What the plugin runs for a document text: its `cache` entry (graphql-jit's `query` and `stringify`). */
interface Entry {
  operation: OperationDefinitionNode;
  query: (root: unknown, context: unknown, variables: unknown) => Promise<ExecutionResult>;
  stringify: (result: unknown) => string;
}

/**
 * /graphql's compiled execution: `@envelop/graphql-jit` runs an operation compiled when `enableIf` says so, taking
 * what it runs from its `cache` (by document text) before compiling anything itself. Our part is the decision and
 * those entries:
 * - `enableIf`: an eligible operation (above), from its second execution (a one-off document costs no compilation),
 *   within the `CompileAllowance`, with variables graphql-js accepts (any it refuses are answered by graphql-js
 *   itself, with its own messages); one operation per document text (the plugin's entry is per text, whichever
 *   operation is named);
 * - the entries: compiled here, so a document's leaves get their own `disableLeafSerialization`, graphql-jit's errors
 *   are positioned in the source, a document graphql-jit cannot compile stays on graphql-js, and a declared variable
 *   left out runs on graphql-js. An entry goes when the allowance drops its compiled form, so at most the allowance's
 *   capacity is held.
 */
export function compiledExecution(): Plugin<Context> {
  const entries = new Map<string, Entry>();

  const entryFor = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, seen: Seen) => ({
    operation,
    query: async (_root: unknown, context: unknown, variables: unknown): Promise<ExecutionResult> => {
      const values = (variables ?? {}) as Record<string, unknown>;
      const out = await seen.compiled?.run(context, values);
      if (out) {
        graphqlExecutions.compiled += 1;
        return out;
      }
      graphqlExecutions.graphqlJs += 1;
      return execute({
        schema,
        document,
        operationName: operation.name?.value,
        contextValue: context,
        variableValues: values,
      });
    },
    stringify: JSON.stringify,
  });

  const enableIf = (args: ExecutionArgs): boolean => {
    // The operation graphql-js runs: the one named, or the only one.
    const operation = getOperationAST(args.document, args.operationName || undefined);
    if (!operation) return false;
    let seen = seenOperations.get(operation);
    if (seen === undefined) {
      seen = eligible(args.schema, args.document, operation) ? { executions: 0, compiled: undefined } : null;
      seenOperations.set(operation, seen);
    }
    // The plugin finds its entry by the document's text (Yoga's parse records it): none, no entry.
    const text = getDocumentString(args.document);
    if (seen === null || text === undefined) return false;
    seen.executions += 1;
    const held = entries.get(text);
    const another = held !== undefined && held.operation.name?.value !== operation.name?.value;
    if (seen.executions < 2 || another) {
      graphqlExecutions.graphqlJs += 1;
      return false;
    }
    if (seen.compiled === undefined && allowance.mayCompile())
      seen.compiled = compiledOrNull(args.schema, args.document, operation);
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    if (
      !seen.compiled ||
      getVariableValues(args.schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors
    ) {
      graphqlExecutions.graphqlJs += 1;
      return false;
    }
    if (held?.operation !== operation) {
      const entry = entryFor(args.schema, args.document, operation, seen);
      entries.set(text, entry);
      seen.dropped = () => {
        if (entries.get(text) === entry) entries.delete(text);
      };
    }
    allowance.ran(operation, seen);
    return true;
  };

  return useGraphQlJit(
    {},
    {
      enableIf,
      cache: {
        get: (text) => entries.get(text) as never,
        // The plugin offers what it compiled itself: never, as every enabled document text has an entry above.
        set: () => {},
      },
    },
  ) as Plugin<Context>;
}
