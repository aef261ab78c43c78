/**
 * Text PostgreSQL cannot store, refused at the boundary of both surfaces. PostgreSQL rejects a NUL (U+0000) in
 * `text` and `jsonb`, and a UTF-16 surrogate that is not half of a pair cannot be encoded as UTF-8 at all; either
 * would reach the database and fail there as a 500. The check runs on everything a caller sends (every string and
 * every object key, at any depth) before any field sees it, so a new field cannot forget it:
 * - GraphQL: every variable value (Yoga `onParams`) and every string literal in the document (a validation rule).
 * - REST: the JSON body, the query string and the path parameters (src/rest/router.ts), before the bridge runs.
 */
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { FieldError } from '../lib/errors.ts';

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

const RULE = 'must not contain a NUL character or an unpaired surrogate.';
export const UNSTORABLE_TEXT_MESSAGE = `M${RULE.slice(1)}`;

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
interface PathLink { segment: string | number; parent: PathLink | null }

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
  const stack: { value: unknown; path: PathLink | null }[] = [{ value, path: null }];
  while (stack.length && found.length < MAX_REPORTED) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) found.push(dotted(path, root));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: { segment: i, parent: path } });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        if (!isStorableText(key)) found.push(dotted({ segment: key, parent: path }, root));
        else stack.push({ value: (v as Record<string, unknown>)[key], path: { segment: key, parent: path } });
      }
    }
  }
  return found.slice(0, MAX_REPORTED);
}

/** The same as field errors (REST's `errors` map); a value at the root is reported as `fallback`. */
export function unstorableTextErrors(value: unknown, fallback = 'body'): FieldError[] {
  return unstorableTextPaths(value).map((field) => ({ field: field || fallback, messages: [UNSTORABLE_TEXT_MESSAGE] }));
}

function badInput(message: string, field: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', field, http: { status: 400 } } });
}

/** Every string literal of the document (arguments, input objects, lists, defaults). */
function literalTextRule(context: ValidationContext): ASTVisitor {
  let reported = 0;
  return {
    StringValue(node) {
      if (reported < MAX_REPORTED && !isStorableText(node.value)) {
        reported += 1;
        context.reportError(new GraphQLError(`A string literal ${RULE}`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } }));
      }
    },
  };
}

/**
 * The Yoga plugin: variables are checked before parsing and execution (a 400 whose errors name each variable
 * path, e.g. `input.first_name`), string literals during validation.
 */
export function storableTextOnly() {
  return {
    onParams: ({ params, setResult }: { params: { variables?: unknown }; setResult: (result: unknown) => void }) => {
      const paths = unstorableTextPaths(params.variables ?? null);
      if (paths.length) {
        setResult({ errors: paths.map((path) => badInput(`Variable "$${path || 'variables'}" ${RULE}`, path || 'variables')) });
      }
    },
    onValidate: ({ addValidationRule }: { addValidationRule: (rule: typeof literalTextRule) => void }) => addValidationRule(literalTextRule),
  };
}
