/**
 * The fuzz oracle's authentication rule (oracle.ts, checkRest): a caller without working credentials gets 401 from a
 * protected route, whatever it sent and whichever method the route answers, and never a 2xx. The oracle is judged
 * here on hand-made answers, so a gap in it shows without a server that misbehaves.
 */
import { describe, expect, it } from 'vitest';
import { checkAudit } from './audit-cases.ts';
import { checkRest, type FuzzResponse } from './oracle.ts';
import type { FuzzRequest } from './requests.ts';

const ctx = { jwtSecret: 'secret-not-in-any-body', rateBracketIds: [1] };

function request(method: string, url: string, auth: string, route: FuzzRequest['route']): FuzzRequest {
  return { target: 'oracle', method, url, headers: {}, tags: [`auth:${auth}`], route };
}

function answer(status: number, body?: unknown): FuzzResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/json' }, text, json: body };
}

const rules = (req: FuzzRequest, res: FuzzResponse) => checkRest(req, res, ctx).violations.map((v) => v.rule);
const usersRoute = { method: 'PUT', public: false, path: '/api/v1/users/:id' };
const getRoute = { method: 'GET', public: false, path: '/api/v1/approvals' };

describe('Authentication: a protected route answers a caller without working credentials 401, never anything else', () => {
  it('an unauthenticated 2xx on a protected route is a violation', () => {
    expect(rules(request('PUT', '/api/v1/users/1', 'none', usersRoute), answer(200, { id: 1 }))).toContain(
      'unauthenticated request answered 2xx on a protected route',
    );
    expect(rules(request('GET', '/api/v1/approvals', 'jwt:expired', getRoute), answer(200, []))).toContain(
      'unauthenticated request answered 2xx on a protected route',
    );
  });

  it('a GET route (and HEAD on it) answering 400 to an unauthenticated query string is a violation', () => {
    const bad = answer(400, { error: 'Invalid request.', errors: { limit: ['A valid integer is required.'] } });
    expect(rules(request('GET', '/api/v1/approvals?limit=x', 'none', getRoute), bad)).toContain(
      'unauthenticated request answered 400, not 401',
    );
    expect(rules(request('HEAD', '/api/v1/approvals?limit=x', 'none', getRoute), answer(400))).toContain(
      'unauthenticated request answered 400, not 401',
    );
  });

  it('401 passes; a working credential, a public route, or a URL that reaches another path is not judged', () => {
    const unauthenticated = answer(401, { error: 'Authentication credentials were not provided or are invalid.' });
    expect(rules(request('PUT', '/api/v1/users/1', 'none', usersRoute), unauthenticated)).toEqual([]);
    expect(rules(request('PUT', '/api/v1/users/1', 'session:broker.admin', usersRoute), answer(200, {}))).toEqual([]);
    const login = { method: 'POST', public: true, path: '/api/v1/auth/login' };
    expect(rules(request('POST', '/api/v1/auth/login', 'none', login), answer(400, { error: 'x' }))).toEqual([]);
    expect(rules(request('PUT', '/api/v1/users/..', 'none', usersRoute), answer(404, { error: 'Not found.' }))).toEqual(
      [],
    );
  });
});

describe('Audit cases: a huge list gets a small 4xx; a two-parser push endpoint gets 400', () => {
  const huge = (status: number, body: unknown): string[] =>
    checkAudit(
      {
        ...request('PUT', '/api/v1/approvals/1', 'api:read', { ...usersRoute, path: '/api/v1/approvals/:id' }),
        tags: ['auth:api:read', 'audit:huge-list'],
      },
      { ...answer(status, body), ms: 10 },
      ctx,
    ).violations.map((v) => v.rule);

  it('a 400 naming 120,000 fields is a violation; a small 403 is not', () => {
    const errors = Object.fromEntries(
      Array.from({ length: 1_000 }, (_, i) => [`industries.${i}`, ['Not a valid string.']]),
    );
    expect(huge(400, { error: 'Invalid request.', errors })).toContain('huge list answered with a large body');
    expect(huge(403, { error: 'This API token is read-only.' })).toEqual([]);
  });
});
