/**
 * What every response must satisfy (spec "Errors" and "Authentication"), whatever was sent:
 * no 5xx but the documented recalculation 500; REST 4xx/5xx bodies in the general or a typed error shape; no secret,
 * stack trace or internal exception text in any body or header; GraphQL answers JSON below 500.
 */
import { pathPattern } from '../../src/rest/router.ts';
import { isUnauthenticated, type FuzzRequest } from './requests.ts';

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  /** How long the answer took, from sending to the last byte (ms). */
  ms?: number;
}

/** `cause`: the class of the problem when the rule alone does not say it (which internal text, which secret). */
export interface Violation {
  rule: string;
  detail: string;
  cause?: string;
}

export interface OracleContext {
  jwtSecret: string;
  rateBracketIds: number[];
}

export const RECALCULATE_PATH = '/api/v1/calculator/recalculate';
const MINT_PATH = '/api/v1/api-tokens';
const TOKEN_PAIR_PATHS = ['/api/v1/auth/login', '/api/v1/auth/refresh'];
const GRAPHQL_TOKEN_SECRET_FIELDS = new Set(['createApiToken']);
const GRAPHQL_TOKEN_PAIR_FIELDS = new Set(['login', 'refresh']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);

/**
 * The route a URL reaches (Express matches case-insensitively and forgives one trailing slash); dot segments are
 * resolved as the HTTP client does before sending (`/healthz/../graphql` is `/graphql`).
 */
function routePath(url: string): string {
  let path = url.split('?')[0];
  try {
    path = new URL(path, 'http://fuzz').pathname;
  } catch {
    /* judged as written */
  }
  path = path.toLowerCase();
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function only(body: Record<string, unknown>, allowed: string[]): string | null {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  return extra.length ? `unexpected key(s) ${extra.join(', ')}` : null;
}

/** null when `body` is one of the spec's error bodies for this status, else what is wrong with it. */
function errorShapeProblem(status: number, body: unknown): string | null {
  if (!isObject(body)) return 'error body is not a JSON object';
  const code = body.error;
  if (body.reason === 'last_admin') {
    // PUT /users/{id} demoting or deactivating the organisation's only active administrator.
    if (status !== 409) return 'last_admin with a status other than 409';
    if (!isString(code)) return 'last_admin body needs error (string)';
    return only(body, ['error', 'reason']);
  }
  if (body.reason !== undefined) {
    if (body.reason !== 'seat_limit_reached') return `unknown reason ${JSON.stringify(body.reason)}`;
    if (status !== 409) return 'seat_limit_reached with a status other than 409';
    const seats = body.seats;
    if (!isString(code) || !isObject(seats) || !isInt(seats.used) || !(seats.limit === null || isInt(seats.limit)))
      return 'seat_limit_reached body needs error (string) and seats {used, limit}';
    return only(body, ['error', 'reason', 'seats']) ?? only(seats, ['used', 'limit']);
  }
  switch (code) {
    case 'cap_hit':
      if (status !== 429) return 'cap_hit with a status other than 429';
      if (
        !isString(body.detail) ||
        !isString(body.message) ||
        !isInt(body.limit) ||
        !isInt(body.used) ||
        !['calculator', 'matrix'].includes(body.metric as string)
      ) {
        return 'cap_hit needs detail, message (strings), limit, used (integers) and metric (calculator|matrix)';
      }
      return only(body, ['error', 'detail', 'message', 'limit', 'used', 'metric']);
    case 'entitlement_required':
      if (status !== 403) return 'entitlement_required with a status other than 403';
      if (
        !isString(body.detail) ||
        (body.message !== undefined && !isString(body.message)) ||
        (body.entitlement !== undefined && !isString(body.entitlement))
      ) {
        return 'entitlement_required needs detail (string); message and entitlement are strings';
      }
      return only(body, ['error', 'detail', 'message', 'entitlement']);
    case 'feature_disabled':
      if (status !== 403) return 'feature_disabled with a status other than 403';
      if (!isString(body.detail)) return 'feature_disabled needs detail (string)';
      return only(body, ['error', 'detail']);
    case 'over_limit':
      if (status !== 409) return 'over_limit with a status other than 409';
      if (!isString(body.message) || !isInt(body.limit)) return 'over_limit needs message (string) and limit (integer)';
      return only(body, ['error', 'message', 'limit']);
    case 'name_required':
      return status === 400 ? only(body, ['error']) : 'name_required with a status other than 400';
    case 'version_conflict':
      // A rate-card write whose expected version (If-Match / expected_version) is stale.
      if (status !== 409) return 'version_conflict with a status other than 409';
      if (!isInt(body.current_version)) return 'version_conflict needs current_version (integer)';
      return only(body, ['error', 'current_version']);
    case 'not_found':
      return status === 404 ? only(body, ['error']) : 'not_found with a status other than 404';
    default:
      break;
  }
  if (code !== undefined && !isString(code)) return '`error` is not a string';
  if (body.errors !== undefined) {
    if (!isObject(body.errors)) return '`errors` is not an object';
    for (const [field, messages] of Object.entries(body.errors)) {
      if (!Array.isArray(messages) || !messages.every(isString)) return `errors.${field} is not a list of strings`;
    }
  }
  return only(body, ['error', 'errors']);
}

/** Text no client should ever see: stack frames, source paths, driver and runtime exception text, resolver names. */
const INTERNAL_TEXT: [string, RegExp][] = [
  ['stack frame', /\s{2,}at \S*[/\\(]|\bat (?:async )?\S+ \(\S+:\d+:\d+\)/],
  ['source path', /\.ts:\d|\.ts:|\.m?js:\d+:\d+/],
  ['node_modules path', /node_modules/],
  ['resolver name (scope-auth text)', /Not authori[sz]ed to (?:resolve|read fields)/i],
  ['Prisma error text', /prisma|\binvocation\b/i],
  [
    'database error text',
    /invalid byte sequence|unsupported Unicode escape|out of range for type|violates .* constraint|null value in column|syntax error at or near|\bPGlite\b|\bpg_\w+|ECONN\w+/i,
  ],
  [
    'JavaScript exception text',
    /\b(?:TypeError|ReferenceError|RangeError|Maximum call stack|Cannot read propert|is not a function|is not iterable|undefined is not)\b/,
  ],
];

function internalText(text: string): string | null {
  return internalMatch(text)?.detail ?? null;
}

function internalMatch(text: string): { name: string; detail: string } | null {
  for (const [name, re] of INTERNAL_TEXT) {
    const m = re.exec(text);
    if (m) return { name, detail: `${name}: …${text.slice(Math.max(0, m.index - 40), m.index + 60)}…` };
  }
  return null;
}

function stringLeaves(
  value: unknown,
  path: string[] = [],
  out: { path: string[]; value: string }[] = [],
): { path: string[]; value: string }[] {
  if (typeof value === 'string') out.push({ path, value });
  else if (Array.isArray(value))
    value.forEach((v, i) => {
      stringLeaves(v, [...path, String(i)], out);
    });
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) stringLeaves(v, [...path, k], out);
  return out;
}

function requestText(req: FuzzRequest): string {
  return `${req.url}\n${Object.values(req.headers).join('\n')}\n${req.body ? Buffer.from(req.body).toString('utf8') : ''}`;
}

interface SecretAllowance {
  serviceToken: boolean;
  refreshToken: boolean;
}

/** Secrets the server knows and the caller did not send: API-token secrets, bcrypt hashes, the JWT key, refresh tokens. */
function secretProblems(
  text: string,
  req: FuzzRequest,
  ctx: OracleContext,
  allow: SecretAllowance,
  where: string,
): Violation[] {
  const sent = requestText(req);
  const out: Violation[] = [];
  for (const m of text.matchAll(/service_sk_[A-Za-z0-9_-]*/g)) {
    if (!allow.serviceToken && !sent.includes(m[0])) {
      out.push({ rule: 'leak: service_sk_ API token', detail: `${where}: ${m[0].slice(0, 16)}…` });
      break;
    }
  }
  for (const m of text.matchAll(/rt_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}/g)) {
    if (!allow.refreshToken && !sent.includes(m[0])) {
      out.push({ rule: 'leak: rt_ refresh token', detail: `${where}: ${m[0].slice(0, 12)}…` });
      break;
    }
  }
  const bcrypt = /\$2[aby]\$/.exec(text);
  if (bcrypt)
    out.push({ rule: 'leak: bcrypt hash', detail: `${where}: …${text.slice(bcrypt.index, bcrypt.index + 12)}…` });
  if (ctx.jwtSecret && text.includes(ctx.jwtSecret)) out.push({ rule: 'leak: JWT secret', detail: where });
  const stack = internalText(text);
  if (stack && /^(stack frame|source path|node_modules path)/.test(stack) && !sent.includes('.ts:'))
    out.push({ rule: 'leak: stack trace', detail: `${where}: ${stack}` });
  return out;
}

function headerText(res: FuzzResponse): string {
  return Object.entries(res.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

/** Input mistakes a client can make on a result card: these must be a 400 naming the field, never the 500. */
function recalculationInputMistake(req: FuzzRequest, ctx: OracleContext): string | null {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(req.body ?? new Uint8Array()).toString('utf8'));
  } catch {
    return 'unparseable body';
  }
  if (!isObject(body)) return 'body is not an object';
  const n = (k: string) => (typeof body[k] === 'number' ? (body[k] as number) : NaN);
  if (!(n('pv') > 0)) return `pv ${JSON.stringify(body.pv)} is not positive`;
  for (const k of ['noi_min', 'noi_max'])
    if (!(n(k) >= 1) || !Number.isInteger(n(k)))
      return `${k} ${JSON.stringify(body[k])} is not a whole number of instalments >= 1`;
  if (n('noi_min') > n('noi_max')) return 'noi_min > noi_max';
  if (!(n('base_min') >= 0) || n('base_max') < n('base_min'))
    return `base rates ${JSON.stringify([body.base_min, body.base_max])} are out of order or negative`;
  if (!(n('compounding_freq_value') > 0))
    return `compounding_freq_value ${JSON.stringify(body.compounding_freq_value)} is not positive`;
  for (const k of ['cost', 'deposit', 'balloon']) if (n(k) < 0) return `${k} is negative`;
  if (!ctx.rateBracketIds.includes(n('rate_bracket_id')))
    return `rate_bracket_id ${JSON.stringify(body.rate_bracket_id)} does not exist`;
  return null;
}

/** `notes`: worth a look but within the contract (printed in the summary, never failing). */
export type Verdict = { violations: Violation[]; documented500: boolean; notes?: string[] };

/**
 * True when the request reaches the route it was generated for: the method the route answers (or HEAD on a GET
 * route) and a path, as the client sends it (dot segments resolved), that the route's pattern matches.
 */
function reachesRoute(req: FuzzRequest): boolean {
  if (!req.route?.path) return false;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (method !== req.route.method) return false;
  let path = req.url.split('?')[0];
  try {
    path = new URL(path, 'http://fuzz').pathname;
  } catch {
    return false;
  }
  return pathPattern(req.route.path.replace(/^\/api\/v1/, '')).test(path.replace(/^\/api\/v1/i, ''));
}

/** REST, /healthz and unknown paths: the app's own JSON error bodies. */
export function checkRest(req: FuzzRequest, res: FuzzResponse, ctx: OracleContext): Verdict {
  const path = routePath(req.url);
  // An odd spelling of the GraphQL endpoint (`/GraphQL/`, `/healthz/../graphql`) reaches it: GraphQL's rules apply.
  if (path === '/graphql') return checkGraphql(req, res, ctx);
  const violations: Violation[] = [];
  let documented500 = false;
  const allow = {
    serviceToken: req.method === 'POST' && path === MINT_PATH && res.status === 201,
    refreshToken: req.method === 'POST' && TOKEN_PAIR_PATHS.includes(path) && res.status === 200,
  };
  violations.push(
    ...secretProblems(res.text, req, ctx, allow, 'body'),
    ...secretProblems(headerText(res), req, ctx, { serviceToken: false, refreshToken: false }, 'headers'),
  );
  const hasBody = req.method !== 'HEAD' && res.status !== 204 && res.status !== 304;

  if (res.status >= 500) {
    // The documented answer carries the re-pricing failure's sentence; 'Internal server error.' is the crash handler's.
    const recalculation =
      req.method === 'POST' &&
      path === RECALCULATE_PATH &&
      res.status === 500 &&
      isObject(res.json) &&
      isString(res.json.error) &&
      Object.keys(res.json).length === 1 &&
      res.json.error !== 'Internal server error.';
    if (recalculation) {
      const mistake = recalculationInputMistake(req, ctx);
      if (mistake)
        violations.push({
          rule: 'recalculation 500 on an input mistake (must be 400)',
          detail: mistake,
          cause: mistake.split(' ')[0],
        });
      else documented500 = true;
    } else {
      violations.push({ rule: `status ${res.status}`, detail: res.text.slice(0, 300) });
    }
  }
  // Sign-in throttling: a 429 says when to try again (spec: Retry-After), like every other 429 but cap_hit's body.
  if (
    res.status === 429 &&
    !(isObject(res.json) && res.json.error === 'cap_hit') &&
    !/^\d+$/.test(res.headers['retry-after'] ?? '')
  ) {
    violations.push({ rule: '429 without Retry-After', detail: res.text.slice(0, 200) });
  }
  // A database outage is 503 {error} with Retry-After (its shape is the general one); the fuzzed database is up, so
  // a 503 here is still reported by the 5xx rule above.
  if (res.status === 503 && !/^\d+$/.test(res.headers['retry-after'] ?? ''))
    violations.push({ rule: '503 without Retry-After', detail: res.text.slice(0, 200) });
  // Authentication: credentials are judged first, so a caller without them gets 401 from a protected route whatever
  // it sent (body, query string, path id) and whichever method the route answers (HEAD runs a GET route), and never
  // a 2xx. Judged only when the URL, as sent, reaches the route (`/users/..` is resolved to another path).
  if (req.route && !req.route.public && isUnauthenticated(req.tags) && reachesRoute(req) && res.status !== 401) {
    const success = res.status >= 200 && res.status < 300;
    violations.push({
      rule: success
        ? 'unauthenticated request answered 2xx on a protected route'
        : `unauthenticated request answered ${res.status}, not 401`,
      detail: res.text.slice(0, 200),
      cause: isObject(res.json) && isString(res.json.error) ? res.json.error.replace(/'.*'/, "'…'") : undefined,
    });
  }
  if (res.status >= 400 && hasBody) {
    if (res.json === undefined) {
      violations.push({
        rule: 'error body is not JSON',
        detail: `content-type ${res.headers['content-type'] ?? 'none'}: ${res.text.slice(0, 200)}`,
        cause: `under /${path.split('/')[1]}`,
      });
    } else {
      const problem = errorShapeProblem(res.status, res.json);
      if (problem) violations.push({ rule: 'error body off-shape', detail: problem });
      for (const leaf of stringLeaves(res.json)) {
        const internal = internalMatch(leaf.value);
        if (internal) {
          violations.push({
            rule: 'internal text in error body',
            detail: `${leaf.path.join('.')}: ${internal.detail}`,
            cause: internal.name,
          });
          break;
        }
      }
    }
  }
  return { violations, documented500 };
}

/** GraphQL: JSON below 500, `errors` a list of {message} with nothing internal, secrets only where they belong. */
export function checkGraphql(req: FuzzRequest, res: FuzzResponse, ctx: OracleContext): Verdict {
  const violations: Violation[] = [];
  const notes: string[] = [];
  if (res.status >= 500) violations.push({ rule: `status ${res.status}`, detail: res.text.slice(0, 300) });
  violations.push(
    ...secretProblems(headerText(res), req, ctx, { serviceToken: false, refreshToken: false }, 'headers'),
  );
  if (req.method === 'HEAD') return { violations, documented500: false }; // no body, by definition
  if (res.json === undefined) {
    violations.push({
      rule: 'GraphQL answer is not JSON',
      detail: `request content-type ${req.headers['content-type'] ?? 'none'}; answer content-type ${res.headers['content-type'] ?? 'none'}: ${res.text.slice(0, 200)}`,
      cause: `status ${res.status}`,
    });
    violations.push(...secretProblems(res.text, req, ctx, { serviceToken: false, refreshToken: false }, 'body'));
    return { violations, documented500: false };
  }
  const body = res.json;
  if (!isObject(body)) {
    violations.push({ rule: 'GraphQL answer is not an object', detail: res.text.slice(0, 200) });
    return { violations, documented500: false };
  }
  const roots = new Set(req.rootFields ?? []);
  // A minted secret is allowed in the data of a document that runs createApiToken, a refresh token in login/refresh's.
  const mayMint = [...roots].some((f) => GRAPHQL_TOKEN_SECRET_FIELDS.has(f));
  const mayPair = [...roots].some((f) => GRAPHQL_TOKEN_PAIR_FIELDS.has(f));
  for (const leaf of stringLeaves(body)) {
    // Aliases rename the field (`b1: secret`), so any data leaf may carry what the document asked to mint.
    const allow = {
      serviceToken: mayMint && leaf.path[0] === 'data',
      refreshToken: mayPair && leaf.path[0] === 'data',
    };
    violations.push(...secretProblems(leaf.value, req, ctx, allow, leaf.path.join('.')));
  }
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors))
      violations.push({ rule: 'GraphQL errors is not a list', detail: res.text.slice(0, 200) });
    else {
      for (const e of body.errors) {
        if (!isObject(e) || !isString(e.message)) {
          violations.push({ rule: 'GraphQL error without a message', detail: JSON.stringify(e).slice(0, 200) });
          continue;
        }
        // Yoga masks a resolver's crash as "Unexpected error." with a 200: the GraphQL face of a 500.
        if (res.status < 500 && isObject(e.extensions) && e.extensions.code === 'INTERNAL_SERVER_ERROR') {
          violations.push({
            rule: 'GraphQL internal error (masked crash)',
            detail: JSON.stringify(e).slice(0, 200),
            cause: Array.isArray(e.path)
              ? `field ${req.rootFields?.length === 1 ? req.rootFields[0] : e.path[0]}`
              : undefined,
          });
        }
        const internal = internalMatch(e.message);
        if (internal)
          violations.push({ rule: 'internal text in GraphQL error', detail: internal.detail, cause: internal.name });
        // An exception's own text (Yoga puts JSON.parse's there) is internal, whatever it says.
        if (isObject(e.extensions) && 'originalError' in e.extensions)
          violations.push({
            rule: 'GraphQL error extensions carry originalError',
            detail: JSON.stringify(e.extensions.originalError).slice(0, 120),
          });
        if (e.extensions !== undefined) {
          const text = JSON.stringify(e.extensions);
          if (/"stack"|"exception"/.test(text) || internalText(text))
            violations.push({ rule: 'GraphQL error extensions expose internals', detail: text.slice(0, 300) });
        }
      }
    }
  }
  // Typed error results carry their sentence in data (`message`, `detail`): same rule.
  for (const leaf of stringLeaves(body.data)) {
    const key = leaf.path[leaf.path.length - 1];
    if (key !== 'message' && key !== 'detail') continue;
    const internal = internalMatch(leaf.value);
    if (internal) {
      violations.push({
        rule: 'internal text in a typed GraphQL error',
        detail: `data.${leaf.path.join('.')}: ${internal.detail}`,
        cause: internal.name,
      });
      break;
    }
  }
  return { violations, documented500: false, notes };
}
