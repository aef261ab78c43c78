/**
 * Fixed cases an outside audit reproduced, sent on every run beside the generated ones, each tagged `audit:<kind>` so
 * the oracle applies its stricter rule on top of the general ones (`checkAudit`):
 * - `audit:huge-list`: a 30,000 to 120,000-element list in a body field (every list field of every body-reading
 *   route, or its first field), as a `read` token and as callers that may write: a small 4xx, answered at once.
 * - `audit:nested-card`: a rate card read through its nested relations (every bracket's product's brackets) on a card
 *   with a product of thousands of brackets: refused for its cost (`COST_LIMIT_EXCEEDED`, docs/graphql.md) or a
 *   bounded answer, never an answer the size of brackets squared.
 * - `audit:push-two-parsers`: a Web Push endpoint that two URL parsers read differently
 *   (`https://127.0.0.1'.fcm.googleapis.com/x`: a push service's host to one, a local address to the other): 400.
 */
import { randomBytes } from 'node:crypto';
import { getNullableType, isListType } from 'graphql';
import type { FuzzResponse, OracleContext, Verdict } from './oracle.ts';
import { checkGraphql, checkRest } from './oracle.ts';
import type { Credentials, FuzzRequest } from './requests.ts';
import type { RestTarget } from './targets.ts';

/** List sizes the huge-list cases cycle through (each body stays under the default 256 kB body limit). */
const HUGE_LIST_SIZES = [30_000, 60_000, 120_000] as const;
/** Largest error body a huge-list case may get ("a few kB"). */
const MAX_HUGE_LIST_ANSWER = 4_096;
/** Longest a huge-list case may take, generous for a loaded machine (linear checking answers in milliseconds). */
const MAX_HUGE_LIST_MS = 2_000;
/** Largest answer the nested card query may get when it is not refused for its cost. */
const MAX_NESTED_CARD_ANSWER = 1_000_000;

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const json = { 'content-type': 'application/json' };

/** `[1,1,...]` written straight as JSON text. */
const list = (element: string, count: number) => `[${`${element},`.repeat(count - 1)}${element}]`;

/** The credentials a huge list is sent with: a `read` token (refused before the body on writes) and writers. */
const HUGE_LIST_CREDENTIALS = ['api:read', 'api:read_write', 'session:financier.admin'] as const;

export function hugeListRequests(targets: readonly RestTarget[], credentials: Credentials): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  let n = 0;
  for (const target of targets) {
    if (!['POST', 'PUT', 'PATCH'].includes(target.method) || target.body.size === 0) continue;
    const lists = [...target.body].filter(([, type]) => type && isListType(getNullableType(type))).map(([f]) => f);
    const fields = lists.length ? lists : [[...target.body.keys()][0]];
    const url = target.path.replace(/:\w+/g, '1');
    for (const field of fields)
      for (const who of target.public ? (['none'] as const) : HUGE_LIST_CREDENTIALS) {
        const size = HUGE_LIST_SIZES[n++ % HUGE_LIST_SIZES.length];
        const authorization = credentials[who];
        out.push({
          target: 'audit cases',
          method: target.method,
          url,
          headers: { ...json, ...(authorization ? { authorization } : {}) },
          body: utf8(`{${JSON.stringify(field)}:${list('1', size)}}`),
          tags: [`auth:${who}`, 'audit:huge-list', `list:${size}`],
          route: { method: target.method, public: target.public },
        });
      }
  }
  return out;
}

/** Every bracket of the card, each with its product's brackets: the brackets squared, unless refused for its cost. */
export function nestedCardRequests(organisationId: number, credentials: Credentials): FuzzRequest[] {
  const query = `query NestedCard($id: Int) { rateCard(organisationId: $id) { __typename
    ... on RateCard { rate_brackets { id product { rate_brackets { id } } } } } }`;
  return (['session:broker.admin', 'api:read'] as const).map((who) => ({
    target: 'audit cases',
    method: 'POST',
    url: '/graphql',
    headers: { ...json, authorization: credentials[who]! },
    body: utf8(JSON.stringify({ query, variables: { id: organisationId } })),
    tags: [`auth:${who}`, 'audit:nested-card'],
    rootFields: ['rateCard'],
  }));
}

/** Endpoints whose host one parser reads as a push service's and another as a local address. */
function twoParserEndpoints(): string[] {
  const out: string[] = [];
  for (const local of ['127.0.0.1', 'localhost', '169.254.169.254'])
    for (const glue of ["'", ';', '`', '{', '}', '"', ':'])
      for (const service of ['fcm.googleapis.com', 'web.push.apple.com'])
        out.push(`https://${local}${glue}.${service}/x`);
  return out;
}

export function pushTwoParserRequests(credentials: Credentials): FuzzRequest[] {
  // Well-formed keys, so the endpoint alone decides: a P-256 point (65 bytes, 0x04 first) and a 16-byte secret.
  const keys = {
    p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
  return twoParserEndpoints().map((token) => ({
    target: 'audit cases',
    method: 'POST',
    url: '/api/v1/notifications/devices',
    headers: { ...json, authorization: credentials['session:broker.admin']! },
    body: utf8(JSON.stringify({ token, platform: 'web', web_push_keys: keys })),
    tags: ['auth:session:broker.admin', 'audit:push-two-parsers'],
    route: { method: 'POST', public: false },
  }));
}

/** The general rules, plus the stricter one of the case's kind. */
export function checkAudit(req: FuzzRequest, res: FuzzResponse, ctx: OracleContext): Verdict {
  const graphql = req.url.startsWith('/graphql');
  const verdict = graphql ? checkGraphql(req, res, ctx) : checkRest(req, res, ctx);
  const violations = [...verdict.violations];
  if (req.tags.includes('audit:huge-list')) {
    const size = req.tags.find((t) => t.startsWith('list:')) ?? '';
    if (res.status < 400 || res.status >= 500)
      violations.push({ rule: 'huge list not answered 4xx', detail: res.text.slice(0, 200), cause: size });
    if (res.text.length > MAX_HUGE_LIST_ANSWER)
      violations.push({
        rule: 'huge list answered with a large body',
        detail: `${res.text.length} bytes`,
        cause: size,
      });
    if (res.ms !== undefined && res.ms > MAX_HUGE_LIST_MS)
      violations.push({ rule: 'huge list answered slowly', detail: `${Math.round(res.ms)} ms`, cause: size });
  }
  if (req.tags.includes('audit:nested-card')) {
    const body = res.json as { errors?: { extensions?: { code?: string } }[] } | undefined;
    const costRefusal = res.status === 400 && body?.errors?.some((e) => e.extensions?.code === 'COST_LIMIT_EXCEEDED');
    if (!costRefusal && !(res.status === 200 && res.text.length <= MAX_NESTED_CARD_ANSWER))
      violations.push({
        rule: 'nested card query neither refused for its cost nor bounded',
        detail: `status ${res.status}, ${res.text.length} bytes: ${res.text.slice(0, 150)}`,
      });
  }
  if (req.tags.includes('audit:push-two-parsers') && res.status !== 400)
    violations.push({
      rule: 'push endpoint two parsers read differently not refused (400)',
      detail: `${JSON.parse(Buffer.from(req.body!).toString('utf8')).token} -> ${res.status}`,
    });
  return { ...verdict, violations };
}
