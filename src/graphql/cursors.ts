/**
 * Cursors of the Prisma plugin's connections (`t.prismaConnection`) are base64 of `GPC:` plus the record's id.
 * The plugin decodes whatever a caller sends and hands it to Prisma as the `cursor` of the query, so a forged one
 * (`GPC:S:abc`, `GPC:N:1e400`, an id beyond 32 bits) failed inside the database client: an unexpected error, logged
 * as a bug. Every connection here pages by an integer id, so before execution a cursor that decodes to `GPC:` must
 * carry exactly that; anything else is a 400 naming the argument. A field that checks its own cursors and answers a
 * typed error (the approvals list) says so with the OWN_CURSOR_CHECK extension and is left to do it.
 */
import {
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from './context.ts';

/** Field extension: this field validates its own `after` / `before` and answers a typed error for a bad one. */
export const OWN_CURSOR_CHECK = 'checksOwnCursors';

const CURSOR_ARGUMENTS = new Set(['after', 'before']);
const PRISMA_CURSOR = /^GPC:N:([1-9]\d{0,9})$/;
const MAX_ID = 2_147_483_647;

/** True when `cursor` is not a Prisma-connection cursor, or is one naming a possible integer id. */
function acceptableCursor(cursor: string): boolean {
  const decoded = Buffer.from(cursor, 'base64').toString('latin1');
  if (!decoded.startsWith('GPC:')) return true;
  const id = PRISMA_CURSOR.exec(decoded)?.[1];
  return id !== undefined && Number(id) <= MAX_ID;
}

function argumentValue(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  return node.kind === Kind.STRING ? node.value : undefined;
}

interface CursorArgument {
  name: string;
  value: ValueNode;
}

/**
 * The `after` / `before` arguments of `document` this plugin checks (not those of fields that check their own),
 * found once per parsed document: Yoga reuses a document's AST across requests, so a hot query is walked once.
 */
const cursorArgumentsOf = new WeakMap<DocumentNode, CursorArgument[]>();

function cursorArguments(schema: GraphQLSchema, document: DocumentNode): CursorArgument[] {
  let found = cursorArgumentsOf.get(document);
  if (!found) {
    const list: CursorArgument[] = [];
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Argument(node) {
          if (!CURSOR_ARGUMENTS.has(node.name.value)) return;
          if (typeInfo.getFieldDef()?.extensions?.[OWN_CURSOR_CHECK]) return;
          list.push({ name: node.name.value, value: node.value });
        },
      }),
    );
    found = list;
    cursorArgumentsOf.set(document, found);
  }
  return found;
}

/** The cursor arguments in `document` that name no record a connection could have handed out. */
function forgedCursorArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
): string[] {
  return cursorArguments(schema, document)
    .filter(({ value }) => {
      const cursor = argumentValue(value, variables);
      return typeof cursor === 'string' && !acceptableCursor(cursor);
    })
    .map(({ name }) => name);
}

export function connectionCursorsOnly(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const forged = forgedCursorArguments(args.schema, args.document, variables);
      if (forged.length === 0) return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(`Not a cursor of this list (${[...new Set(forged)].join(', ')}): use one a page returned.`, {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          }),
        ],
      });
    },
  };
}
