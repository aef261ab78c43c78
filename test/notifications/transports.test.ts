/**
 * The APNs and FCM transports against stand-ins of their HTTP APIs on 127.0.0.1 (TLS with a self-signed certificate):
 * what they send, how they authenticate, and how they read the providers' answers (docs/notifications.md).
 */
import { generateKeyPairSync, verify } from 'node:crypto';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apnsTransport,
  fcmTransport,
  type PushMessage,
  type PushTarget,
} from '../../src/modules/notifications/index.ts';
import { selfSignedCert } from './support.ts';

const tls = selfSignedCert();
const message: PushMessage = {
  notification_id: 42,
  category: 'rate_card',
  title: 'Rate card updated',
  body: 'Financier X changed a rate card.',
  data: { version: 3 },
};
const target = (token: string, platform: 'ios' | 'android'): PushTarget => ({
  id: 1,
  platform,
  token,
  web_push_p256dh: null,
  web_push_auth: null,
});

/** Verifies a compact JWS with `key`; answers its claims. */
function verifiedClaims(jwt: string, key: string, ec: boolean): Record<string, unknown> {
  const [header, claims, signature] = jwt.split('.');
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    ec ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('JWT signature does not verify');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()),
    ...JSON.parse(Buffer.from(claims, 'base64url').toString()),
  };
}

describe('APNs: HTTP/2 POST /3/device/<token> with an ES256 provider token', () => {
  const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const requests: { headers: Record<string, unknown>; body: string }[] = [];
  let sessions = 0;
  let server: Http2SecureServer;
  let origin: string;

  beforeAll(async () => {
    server = createSecureServer(tls);
    server.on('session', () => sessions++);
    server.on('stream', (stream, headers) => {
      let body = '';
      stream.on('data', (c: Buffer) => (body += c.toString()));
      stream.on('end', () => {
        requests.push({ headers: { ...headers }, body });
        const path = String(headers[':path']);
        if (path.includes('/dead')) {
          stream.respond({ ':status': 410, 'content-type': 'application/json' });
          stream.end(JSON.stringify({ reason: 'Unregistered' }));
        } else if (path.includes('/beef')) {
          stream.respond({ ':status': 429 });
          stream.end(JSON.stringify({ reason: 'TooManyRequests' }));
        } else {
          stream.respond({ ':status': 200 });
          stream.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the alert with topic, push type and an ES256 JWT signed by the .p8 key; one session for many sends', async () => {
    const apns = apnsTransport({
      keyId: 'KEY1234567',
      teamId: 'TEAM123456',
      privateKey,
      topic: 'com.example.app',
      origin,
      timeoutMs: 5000,
      ca: tls.cert,
    });
    try {
      const token = 'ab'.repeat(32);
      expect(await apns.send(target(token, 'ios'), message)).toEqual({ ok: true });
      expect(await apns.send(target(token, 'ios'), message)).toEqual({ ok: true });
      const [first] = requests;
      expect(first.headers[':method']).toBe('POST');
      expect(first.headers[':path']).toBe(`/3/device/${token}`);
      expect(first.headers['apns-topic']).toBe('com.example.app');
      expect(first.headers['apns-push-type']).toBe('alert');
      expect(first.headers['apns-expiration']).toBe('0');
      const jwt = String(first.headers.authorization).replace(/^bearer /, '');
      expect(verifiedClaims(jwt, publicKey, true)).toMatchObject({
        header: { alg: 'ES256', kid: 'KEY1234567' },
        iss: 'TEAM123456',
      });
      expect(JSON.parse(first.body)).toMatchObject({
        aps: { alert: { title: 'Rate card updated', body: 'Financier X changed a rate card.' } },
        id: 42,
        category: 'rate_card',
        data: { version: 3 },
      });
      expect(sessions).toBe(1);
    } finally {
      apns.close();
    }
  });

  it('410 Unregistered is gone; 429 is a plain failure', async () => {
    const apns = apnsTransport({
      keyId: 'K',
      teamId: 'T',
      privateKey,
      topic: 'com.example.app',
      origin,
      timeoutMs: 5000,
      ca: tls.cert,
    });
    try {
      expect(await apns.send(target(`dead${'0'.repeat(60)}`, 'ios'), message)).toEqual({
        ok: false,
        reason: 'APNs answered 410 Unregistered',
        gone: true,
      });
      expect(await apns.send(target(`beef${'0'.repeat(60)}`, 'ios'), message)).toEqual({
        ok: false,
        reason: 'APNs answered 429 TooManyRequests',
        gone: false,
      });
    } finally {
      apns.close();
    }
  });

  it('a token that is not hexadecimal never reaches the path', async () => {
    const apns = apnsTransport({
      keyId: 'K',
      teamId: 'T',
      privateKey,
      topic: 't',
      origin,
      timeoutMs: 5000,
      ca: tls.cert,
    });
    const before = requests.length;
    expect(await apns.send(target('../../x', 'ios'), message)).toMatchObject({ ok: false });
    expect(requests.length).toBe(before);
    apns.close();
  });

  it('an unreachable APNs is a failure, not a throw', async () => {
    const apns = apnsTransport({
      keyId: 'K',
      teamId: 'T',
      privateKey,
      topic: 't',
      origin: 'https://127.0.0.1:1',
      timeoutMs: 5000,
    });
    const outcome = await apns.send(target('ab'.repeat(32), 'ios'), message);
    expect(outcome).toMatchObject({ ok: false });
    apns.close();
  });
});

describe('FCM HTTP v1: a service-account access token, then messages:send', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const calls: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer(tls, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ path: req.url ?? '', headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/token') {
          res.end(JSON.stringify({ access_token: 'access-1', expires_in: 3600, token_type: 'Bearer' }));
        } else if (req.headers.authorization !== 'Bearer access-1') {
          res.statusCode = 401;
          res.end('{}');
        } else if (body.includes('stale')) {
          res.statusCode = 404;
          res.end(
            JSON.stringify({
              error: {
                status: 'NOT_FOUND',
                details: [
                  { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
                ],
              },
            }),
          );
        } else res.end(JSON.stringify({ name: 'projects/demo-project/messages/1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const transport = () =>
    fcmTransport({
      projectId: 'demo-project',
      clientEmail: 'push@demo-project.iam.gserviceaccount.com',
      privateKey,
      tokenUrl: `${origin}/token`,
      apiOrigin: origin,
      timeoutMs: 5000,
      agent: new Agent({ ca: tls.cert }),
    });

  it('mints one access token with an RS256 assertion and reuses it; sends notification and string data', async () => {
    const fcm = transport();
    expect(await fcm.send(target('fcm-token-1', 'android'), message)).toEqual({ ok: true });
    expect(await fcm.send(target('fcm-token-2', 'android'), message)).toEqual({ ok: true });
    const tokenCalls = calls.filter((c) => c.path === '/token');
    expect(tokenCalls).toHaveLength(1);
    const form = new URLSearchParams(tokenCalls[0].body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(verifiedClaims(form.get('assertion')!, publicKey, false)).toMatchObject({
      header: { alg: 'RS256' },
      iss: 'push@demo-project.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
      aud: `${origin}/token`,
    });
    const send = calls.find((c) => c.path === '/v1/projects/demo-project/messages:send')!;
    expect(JSON.parse(send.body)).toEqual({
      message: {
        token: 'fcm-token-1',
        notification: { title: 'Rate card updated', body: 'Financier X changed a rate card.' },
        data: { id: '42', category: 'rate_card', payload: '{"version":3}' },
      },
    });
  });

  it('UNREGISTERED is gone', async () => {
    expect(await transport().send(target('stale-token', 'android'), message)).toEqual({
      ok: false,
      reason: 'FCM answered 404 UNREGISTERED',
      gone: true,
    });
  });

  it('an unreachable token endpoint is a failure, not a throw', async () => {
    const fcm = fcmTransport({
      projectId: 'p',
      clientEmail: 'e',
      privateKey,
      tokenUrl: 'https://127.0.0.1:1/token',
      apiOrigin: origin,
      timeoutMs: 5000,
    });
    expect(await fcm.send(target('t', 'android'), message)).toMatchObject({ ok: false });
  });
});
