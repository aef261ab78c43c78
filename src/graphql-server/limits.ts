/**
 * Bounds on the work one GraphQL request can cause (OWASP API4), as Yoga plugins, each decided before the next
 * stage's heavy work (docs/graphql.md):
 * - parsing stops after MAX_TOKENS tokens, so a document cannot nest deeper than that (a 5,000-deep selection or
 *   list literal is a 400, not a stack overflow);
 * - after validation, the operation's depth, aliases (at every fragment spread), metered root fields and pagination
 *   arguments are checked against the declared catalogue sizes (cached with the document);
 * - before execution, its cost is computed with the caller's actual catalogue sizes and the variables, and an
 *   over-budget operation is refused: no resolver runs, nothing is metered.
 * Every refusal is a 400 with a message naming the limit.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  getOperationAST,
  parse,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context.ts';
import { snapshotFor } from '../modules/catalogue/index.ts';
import {
  DECLARED_SIZES,
  MAX_ALIASES,
  MAX_COST,
  MAX_DEPTH,
  operationShape,
  sizesOf,
  type OperationShape,
} from './cost.ts';

export { MAX_ALIASES, MAX_COST, MAX_DEPTH } from './cost.ts';

/**
 * Tokens in one document: several times a large dashboard query (GraphiQL's introspection query is 184). graphql-js's
 * OverlappingFieldsCanBeMerged rule is quadratic in repeated selections, so validation time climbs steeply past this
 * bound, for every request whose document is new to the validation cache.
 */
export const MAX_TOKENS = 1000;
/**
 * Open brackets, braces and parentheses at once. graphql-js's parser recurses per level (a 2,000-deep list literal
 * overflows the stack within the token limit), so nesting is counted first, by the lexer, which does not recurse.
 */
export const MAX_NESTING = 64;

const OPENERS = new Set<string>([TokenKind.BRACKET_L, TokenKind.BRACE_L, TokenKind.PAREN_L]);
const CLOSERS = new Set<string>([TokenKind.BRACKET_R, TokenKind.BRACE_R, TokenKind.PAREN_R]);

/** Throws a 400 when `source` has more than MAX_TOKENS tokens or nests deeper than MAX_NESTING. */
function checkDocumentSize(source: string | Source): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let tokens = 0;
  let depth = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    if (++tokens > MAX_TOKENS)
      throw refusal(`Document contains more than ${MAX_TOKENS} tokens. Parsing aborted.`, 'GRAPHQL_PARSE_FAILED');
    if (OPENERS.has(token.kind)) {
      if (++depth > MAX_NESTING)
        throw refusal(
          `Document nests more than ${MAX_NESTING} levels of brackets, braces or parentheses. Parsing aborted.`,
          'GRAPHQL_PARSE_FAILED',
        );
    } else if (CLOSERS.has(token.kind)) depth -= 1;
  }
}

function refusal(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
}

interface Parts {
  operations: OperationDefinitionNode[];
  fragments: Record<string, FragmentDefinitionNode>;
}

/** A parsed document's operations and fragments (Yoga reuses a document's AST across requests: split once). */
const partsOf = new WeakMap<DocumentNode, Parts>();

function parts(document: DocumentNode): Parts {
  let found = partsOf.get(document);
  if (!found) {
    const operations: OperationDefinitionNode[] = [];
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) {
      if (d.kind === Kind.OPERATION_DEFINITION) operations.push(d);
      else if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    }
    found = { operations, fragments };
    partsOf.set(document, found);
  }
  return found;
}

/**
 * Metered fields the operation would run more than once: selected under two response names. Selections under one
 * name (a field written twice, or spread by two fragments) are merged by GraphQL into one run.
 */
function twiceRunMeteredFields(shape: OperationShape): string[] {
  const keys = new Map<string, Set<string>>();
  for (const { field, responseKey } of shape.metered) {
    const seen = keys.get(field) ?? new Set<string>();
    seen.add(responseKey);
    keys.set(field, seen);
  }
  return [...keys].filter(([, seen]) => seen.size > 1).map(([field]) => field);
}

/** Refusals of an operation's shape, whatever its variables (checked once per document). */
function shapeRefusals(shape: OperationShape): GraphQLError[] {
  const errors: GraphQLError[] = [];
  if (shape.depth > MAX_DEPTH)
    errors.push(refusal(`Query depth ${shape.depth} exceeds the limit of ${MAX_DEPTH}.`, 'DEPTH_LIMIT_EXCEEDED'));
  if (shape.aliases > MAX_ALIASES)
    errors.push(
      refusal(
        `${shape.aliases} aliases (counted at every fragment spread) exceed the limit of ${MAX_ALIASES}.`,
        'ALIAS_LIMIT_EXCEEDED',
      ),
    );
  for (const field of twiceRunMeteredFields(shape))
    errors.push(
      refusal(
        `${field} is selected under more than one name (alias); each of calculate, matrix and matrixCalculator may run once per request.`,
        'METERED_FIELD_LIMIT',
      ),
    );
  for (const p of shape.problems) errors.push(refusal(p, 'BAD_USER_INPUT'));
  return errors;
}

function costRefusal(cost: number): GraphQLError {
  return refusal(
    `Query cost ${cost} exceeds the budget of ${MAX_COST}: ask fewer fields, a smaller schedule page (first), or fewer aliases and fragment spreads (docs/graphql.md).`,
    'COST_LIMIT_EXCEEDED',
  );
}

/**
 * A request error (nothing executed: parse, validation, variables, a limit) is a 400 whatever the Accept header.
 * Yoga answers 200 to `application/json` for validation errors (it marks them `http.spec`), and its validation cache
 * returns our refusals with that mark added; so the status is set here, on fresh errors, on the way out.
 */
function asRequestError(error: GraphQLError): GraphQLError {
  const http = error.extensions?.http as
    | { status?: number; spec?: boolean; headers?: Record<string, string> }
    | undefined;
  if (error.path || error.extensions?.code === 'INTERNAL_SERVER_ERROR' || (http?.status && !http.spec)) return error;
  // `spec: true` is Yoga's mark for "400 only under application/graphql-response+json": dropped, so it is 400 always.
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: { headers: http?.headers, status: 400 } },
  });
}

/**
 * Shape refusals per valid document. Yoga's validation cache answers a known document without validating, but the
 * hooks after validation still run on every request: the shape is checked once per document, not per request.
 */
const shapeRefusalsOf = new WeakMap<DocumentNode, GraphQLError[]>();
/** Per operation: whether it is priced with the catalogue's actual sizes (a metered field or a catalogue list). */
const needsCatalogueOf = new WeakMap<OperationDefinitionNode, boolean>();

export function graphqlLimits(): Plugin<Context> {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !result || typeof result !== 'object' || !('errors' in result)) return;
      const single = result as ExecutionResult;
      if (single.data == null && single.errors?.length)
        setResult({ ...single, errors: single.errors.map((e) => asRequestError(e as GraphQLError)) });
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        try {
          checkDocumentSize(source);
          return parse(source, { ...options, maxTokens: MAX_TOKENS });
        } catch (error) {
          // The parser's own errors are syntax errors (400); anything else must not become a 500.
          throw error instanceof GraphQLError
            ? error
            : refusal('The document could not be parsed.', 'GRAPHQL_PARSE_FAILED');
        }
      });
    },
    onValidate({ params }) {
      return ({ valid, setResult }) => {
        if (!valid) return;
        let errors = shapeRefusalsOf.get(params.documentAST);
        if (!errors) {
          const { operations, fragments } = parts(params.documentAST);
          errors = operations.flatMap((op) =>
            shapeRefusals(operationShape(params.schema, op, fragments, DECLARED_SIZES)),
          );
          shapeRefusalsOf.set(params.documentAST, errors);
        }
        if (errors.length) setResult(errors);
      };
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const { fragments } = parts(args.document);
      const operation = getOperationAST(args.document, args.operationName || undefined);
      if (!operation) return; // graphql-js answers the missing operation itself
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const ctx = args.contextValue as Context;
      // A metered field's lists, and a card's products, brackets and mappings, hold at most what the catalogue has:
      // a signed-in caller's operation selecting one is costed with the actual counts (the snapshot the engines
      // read; cached per version, so measuring it costs no query). Otherwise (no such list, or no caller: every
      // field that reaches one needs a signed-in caller) the declared scale is used and nothing is read.
      // Whether it selects one depends on the operation alone: known from the first request that sent it
      // (Yoga reuses a document's AST). An operation whose sized arguments are literals is then walked once per
      // catalogue version, whatever its variables; one that pages by a variable, once per request.
      let needsCatalogue = needsCatalogueOf.get(operation);
      if (needsCatalogue === undefined) {
        const declared = operationShape(args.schema, operation, fragments, DECLARED_SIZES);
        needsCatalogue = declared.metered.length > 0 || declared.catalogueLists > 0;
        needsCatalogueOf.set(operation, needsCatalogue);
      }
      const sizes = needsCatalogue && ctx.caller ? sizesOf(await snapshotFor(ctx)) : DECLARED_SIZES;
      const shape = operationShape(args.schema, operation, fragments, sizes, variables);
      const errors = shape.problems.map((p) => refusal(p, 'BAD_USER_INPUT'));
      if (!errors.length && shape.cost > MAX_COST) errors.push(costRefusal(shape.cost));
      if (errors.length) setResultAndStopExecution({ errors });
    },
  };
}
