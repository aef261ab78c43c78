/**
 * Response conformance: every /api/v1 answer a test receives is checked against the OpenAPI document
 * (src/rest/openapi/), so the document and the code cannot drift apart silently. testkit/app.ts `rest()` calls
 * `assertConforms` on every answer; a test that deliberately sends something outside any operation opts out with
 * `{ conformance: false }`.
 *
 * Throws when the operation is undocumented, the status is undocumented for it, a required header is missing, or the
 * body does not match the documented schema (a response documented without content must have no body). Answers to
 * method+paths no route of the route table serves (the JSON 404 of an unknown route) are not checked.
 *
 * TEST_CONFORMANCE_ONLY_DOCUMENTED=1 skips undocumented operations (local work while another branch documents them);
 * the default is strict.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { openApiDocument } from '../src/rest/openapi/document.ts';
import { pathPattern } from '../src/rest/router.ts';
import { routes } from '../src/rest/routes/index.ts';

type Json = Record<string, any>;

// ajv-formats is CommonJS: Node hands ESM the plugin itself, TypeScript (NodeNext) types the module object.
const addFormats = ((formatsModule as any).default ?? formatsModule) as typeof formatsModule.default;

export interface ObservedResponse {
  method: string;
  /** The request URL below the origin: path and optional query string. */
  url: string;
  status: number;
  contentType: string | null;
  headers: Headers;
  /** The raw body text. */
  text: string;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
}

const PREFIX = '/api/v1';
const DOCUMENT_ID = 'openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The route table as the router matches it: method + pattern, mounted below /api/v1. */
const served = routes.map((r) => ({ method: r.method, pattern: pathPattern(r.path) }));

interface Template {
  path: string;
  pattern: RegExp;
  parameters: number;
}

function templatesOf(document: Json): Template[] {
  return Object.keys(document.paths ?? {})
    .filter((path) => path.toLowerCase().startsWith(`${PREFIX}/`))
    .map((path) => ({
      path,
      // `{id}` is one segment, matched like the router's `:id`, with the same trailing-slash tolerance.
      pattern: pathPattern(path.slice(PREFIX.length).replace(/\{([^}/]+)\}/g, ':$1')),
      parameters: (path.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.parameters - b.parameters); // a literal segment wins over a parameter (`/approvals/options`)
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows local `$ref`s (`#/components/responses/X`) to the object and its JSON pointer. */
function resolve(document: Json, node: Json, pointer: string): { node: Json; pointer: string } {
  let at = { node, pointer };
  for (let hops = 0; typeof at.node?.$ref === 'string' && hops < 10; hops++) {
    const ref: string = at.node.$ref;
    if (!ref.startsWith('#/')) throw new Error(`OpenAPI conformance: only local $refs are supported (${ref})`);
    const target = ref
      .slice(2)
      .split('/')
      .reduce<any>((n, s) => n?.[s.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    if (target === undefined) throw new Error(`OpenAPI conformance: ${ref} does not resolve`);
    at = { node: target, pointer: ref.slice(1) };
  }
  return at;
}

function truncate(text: string, max = 1500): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 20)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('\n');
}

export class ConformanceChecker {
  private readonly ajv: Ajv2020;
  private readonly templates: Template[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    private readonly document: Json = openApiDocument,
    private readonly options: { onlyDocumented?: boolean } = {},
  ) {
    // strict off: OpenAPI's own keywords (`discriminator`, `example`) sit beside JSON Schema ones.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
    });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    this.ajv.addFormat('double', { type: 'number', validate: () => true });
    this.ajv.addFormat('float', { type: 'number', validate: () => true });
    // Registered whole, so `#/components/...` inside any schema resolves against the document.
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = templatesOf(document);
  }

  /** Throws an Error naming method, path, status, what is wrong and the body when the answer is not documented. */
  check(response: ObservedResponse): void {
    const method = response.method.toLowerCase();
    // Dot segments are resolved as the HTTP client resolves them before sending (`/a/./b` is `/a/b`).
    const path = new URL(response.url.split('?')[0], 'http://conformance.invalid').pathname;
    if (!path.toLowerCase().startsWith(`${PREFIX}/`)) return; // /graphql, /mcp, /metrics, /readyz ...
    const below = path.slice(PREFIX.length);
    if (!served.some((r) => r.method === method && r.pattern.test(below))) return; // unknown route: its JSON 404

    const failure = (problem: string, details = ''): Error =>
      new Error(
        `OpenAPI conformance: ${response.method.toUpperCase()} ${path} answered ${response.status}: ${problem}` +
          `${details ? `\n${details}` : ''}\nbody: ${truncate(response.text)}`,
      );
    const fail = (problem: string, details = ''): never => {
      throw failure(problem, details);
    };

    const template = this.templates.find(
      (t) => t.pattern.test(below) && METHODS.includes(method) && this.document.paths[t.path][method],
    );
    if (!template) {
      if (this.options.onlyDocumented) return;
      throw failure('the operation is not documented');
    }
    const operation = this.document.paths[template.path][method];
    const operationPointer = `/paths/${escapePointer(template.path)}/${method}`;
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => operation.responses?.[k] !== undefined);
    if (!key) throw failure(`status ${status} is not documented for ${operation.operationId ?? template.path}`);
    const documented = resolve(this.document, operation.responses[key], `${operationPointer}/responses/${key}`);

    for (const [name, header] of Object.entries<Json>(documented.node.headers ?? {})) {
      const spec = resolve(this.document, header, '').node;
      const value = response.headers.get(name);
      if (value === null) {
        if (spec.required) fail(`the required header ${name} is missing`);
        continue;
      }
      const schema = spec.schema ?? {};
      const asJson = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      if (!this.ajv.validate(schema, asJson)) fail(`header ${name}: ${value}`, describeErrors(this.ajv.errors));
    }

    const content: Json | undefined = documented.node.content;
    if (!content || Object.keys(content).length === 0) {
      if (response.text.length > 0) fail('the documented response has no body, but one was sent');
      return;
    }
    const json = content['application/json'];
    if (!json) throw failure(`only ${Object.keys(content).join(', ')} is documented; this check reads JSON answers`);
    if (!/^application\/json\b/i.test(response.contentType ?? ''))
      fail(`content-type ${response.contentType ?? '(none)'}, documented application/json`);
    if (typeof response.body === 'string' && response.text.length > 0 && !isJsonText(response.text))
      fail('the body is not JSON');
    if (!json.schema) return;
    const pointer = `${documented.pointer}/content/application~1json/schema`;
    const validate = this.compiled.get(pointer) ?? this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    this.compiled.set(pointer, validate);
    if (!validate(response.body)) fail(`the body does not match ${pointer}`, describeErrors(validate.errors));
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

let shared: ConformanceChecker | undefined;

/** Replaces the shared checker (a test proving the hook runs); `undefined` goes back to the served document. */
export function useConformanceChecker(checker: ConformanceChecker | undefined): void {
  shared = checker;
}

/** The checker every test app shares (the document is parsed once per process). */
export function assertConforms(response: ObservedResponse): void {
  shared ??= new ConformanceChecker(openApiDocument, {
    onlyDocumented: process.env.TEST_CONFORMANCE_ONLY_DOCUMENTED === '1',
  });
  shared.check(response);
}
