/**
 * Text PostgreSQL cannot store, refused at the boundary of both surfaces. PostgreSQL rejects a NUL (U+0000) in
 * `text` and `jsonb`, and a UTF-16 surrogate that is not half of a pair cannot be encoded as UTF-8 at all; either
 * would reach the database and fail there as a 500. The check runs on everything a caller sends (every string and
 * every object key, at any depth) before any field sees it, so a new field cannot forget it:
 * - GraphQL: every variable value and every string literal of the document (Yoga `onParams`, before parsing).
 * - REST: the JSON body, the query string and the path parameters (src/rest/router.ts), before the bridge runs.
 */
import { GraphQLError, parse, visit, type DocumentNode } from 'graphql';
import type { FieldError } from '../lib/errors.ts';

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

const RULE = 'must not contain a NUL character or an unpaired surrogate.';
const UNSTORABLE_TEXT_MESSAGE = `M${RULE.slice(1)}`;

/** Most problems reported for one request: enough to fix a body, bounded whatever the body holds. */
const MAX_REPORTED = 20;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** A path segment safe to echo back in a response body (the offending characters shown as U+FFFD). */
function printable(segment: string | number): string {
  return typeof segment === 'number' ? String(segment) : segment.replace(UNSTORABLE_ALL, '\uFFFD');
}

/** A path as a chain of links to the parent, so walking a deep body costs O(size), not O(depth^2). */
interface PathLink {
  segment: string | number;
  parent: PathLink | null;
}

function dotted(link: PathLink | null, root: readonly (string | number)[]): string {
  const segments: (string | number)[] = [];
  for (let l = link; l; l = l.parent) segments.push(l.segment);
  return [...root, ...segments.reverse()].map(printable).join('.');
}

/**
 * The paths, dotted, of every string or object key under `value` that PostgreSQL cannot store (at most
 * MAX_REPORTED). Iterative and linear, so a deeply nested body can neither exhaust the stack nor the CPU.
 */
export function unstorableTextPaths(value: unknown, root: readonly (string | number)[] = []): string[] {
  const found: string[] = [];
  if (typeof value === 'string') return isStorableText(value) ? found : [dotted(null, root)];
  if (value === null || typeof value !== 'object') return found;
  // Depth first, in the input's order. Only containers get a frame and a path link: a list of 100,000 numbers or
  // strings is one pass over it, with no allocation per item.
  interface Frame {
    value: object;
    keys: string[] | null;
    next: number;
    path: PathLink | null;
  }
  const frame = (v: object, path: PathLink | null): Frame => ({
    value: v,
    keys: Array.isArray(v) ? null : Object.keys(v),
    next: 0,
    path,
  });
  const stack: Frame[] = [frame(value, null)];
  while (stack.length && found.length < MAX_REPORTED) {
    const top = stack[stack.length - 1];
    const length = top.keys ? top.keys.length : (top.value as unknown[]).length;
    if (top.next >= length) {
      stack.pop();
      continue;
    }
    const i = top.next++;
    const segment = top.keys ? top.keys[i] : i;
    if (typeof segment === 'string' && !isStorableText(segment)) {
      found.push(dotted({ segment, parent: top.path }, root));
      continue;
    }
    const item: unknown = (top.value as Record<string | number, unknown>)[segment];
    if (typeof item === 'string') {
      if (!isStorableText(item)) found.push(dotted({ segment, parent: top.path }, root));
    } else if (item !== null && typeof item === 'object') stack.push(frame(item, { segment, parent: top.path }));
  }
  return found;
}

/** The same as field errors (REST's `errors` map); a value at the root is reported as `fallback`. */
export function unstorableTextErrors(value: unknown, fallback = 'body'): FieldError[] {
  return unstorableTextPaths(value).map((field) => ({ field: field || fallback, messages: [UNSTORABLE_TEXT_MESSAGE] }));
}

function badInput(message: string, field: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', field, http: { status: 400 } } });
}

/** Places in the document text that could decode to unstorable text: an escape (`\u0000`) or the raw characters. */
const MAY_HOLD_UNSTORABLE = /\\u|[\u0000\uD800-\uDFFF]/;

/** Every string literal of the document (arguments, input objects, lists, defaults) that PostgreSQL cannot store. */
function unstorableLiterals(query: string): GraphQLError[] {
  if (!MAY_HOLD_UNSTORABLE.test(query)) return []; // the common case: no parse here
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return [];
  } // a syntax error is Yoga's to report
  const errors: GraphQLError[] = [];
  visit(document, {
    StringValue(node) {
      if (errors.length < MAX_REPORTED && !isStorableText(node.value)) {
        const at = node.loc ? ` (line ${node.loc.startToken.line}, column ${node.loc.startToken.column})` : '';
        errors.push(
          new GraphQLError(`A string literal${at} ${RULE}`, {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          }),
        );
      }
    },
  });
  return errors;
}

/**
 * The Yoga plugin: before parsing and execution, every variable (a 400 whose errors name each variable path, e.g.
 * `input.first_name`) and every string literal of the document. Both answer 400 whatever the client accepts.
 */
export function storableTextOnly() {
  return {
    onParams: ({
      params,
      setResult,
    }: {
      params: { query?: string; variables?: unknown };
      setResult: (result: unknown) => void;
    }) => {
      const errors = unstorableTextPaths(params.variables ?? null).map((path) =>
        badInput(`Variable "$${path || 'variables'}" ${RULE}`, path || 'variables'),
      );
      if (typeof params.query === 'string') errors.push(...unstorableLiterals(params.query));
      if (errors.length) setResult({ errors });
    },
  };
}
