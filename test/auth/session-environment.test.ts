/**
 * Spec Authentication 6 (a credential works only in the environment that issued it), applied to sign-ins as to API
 * tokens (docs/auth.md): a session's access and refresh tokens are refused by a process of another
 * SERVICE_ENVIRONMENT, even one sharing the database and JWT_SECRET.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let local: TestApp;
let qa: TestApp; // another process: same database, same JWT_SECRET, SERVICE_ENVIRONMENT=qa
beforeAll(async () => {
  local = await startTestApp();
  qa = await startTestApp({ shareDatabaseWith: local, config: { environment: 'qa' } });
});
afterAll(async () => {
  await qa?.close();
  await local?.close();
});

const me = (app: TestApp, token: string) => app.rest('GET', '/api/v1/api-tokens', { token });
const refresh = (app: TestApp, token: string) => app.rest('POST', '/api/v1/auth/refresh', { body: { refresh: token } });

describe('A session works only in the environment it signed in to', () => {
  it('a local access token is 401 on a qa process, and still 200 on local', async () => {
    expect(qa.config.jwtSecret).toBe(local.config.jwtSecret);
    const { access } = await local.login('broker.admin@demo.test');
    expect((await me(qa, access)).status).toBe(401);
    expect((await me(local, access)).status).toBe(200);
  });

  it('a local refresh token is 401 on a qa process and is not spent there; local still rotates it', async () => {
    const { refresh: token } = await local.login('broker.user@demo.test');
    expect((await refresh(qa, token)).status).toBe(401);
    const rotated = await refresh(local, token);
    expect(rotated.status).toBe(200);
    expect((await refresh(qa, rotated.body.refresh)).status).toBe(401);
  });

  it('a qa sign-in is refused by local the same way', async () => {
    const { access, refresh: token } = await qa.login('free.broker@demo.test');
    expect((await me(qa, access)).status).toBe(200);
    expect((await me(local, access)).status).toBe(401);
    expect((await refresh(local, token)).status).toBe(401);
  });

  it('GraphQL refuses a foreign session as REST does', async () => {
    const { access } = await local.login('broker.admin@demo.test');
    const res = await qa.graphql(access).request<any>('{ apiTokens { __typename } }');
    expect(res.apiTokens.__typename).toBe('UnauthenticatedError');
  });
});
