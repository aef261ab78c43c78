/**
 * APNs (Apple Push Notification service) over its HTTP/2 API with token-based (JWT, ES256) authentication.
 * One HTTP/2 session is kept and reused (Apple treats repeated connections as abuse); it is dropped on any error,
 * closed when idle for a minute, and never keeps the process alive.
 */
import { sign } from 'node:crypto';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { payloadOf, type SendOutcome, type Transport } from './transport.ts';

export interface ApnsOptions {
  keyId: string;
  teamId: string;
  /** The .p8 signing key (PEM, PKCS#8, P-256). */
  privateKey: string;
  /** The app's bundle id. */
  topic: string;
  /** https://api.push.apple.com, or https://api.sandbox.push.apple.com for development builds. */
  origin: string;
  timeoutMs: number;
  /** Extra trusted certificate (tests: their stand-in's self-signed one). */
  ca?: string;
}

const HEX_TOKEN = /^[0-9A-Fa-f]{64,200}$/;

export function apnsTransport(options: ApnsOptions): Transport & { close(): void } {
  let session: ClientHttp2Session | null = null;
  let jwt: { value: string; issuedAt: number } | null = null;

  /** Apple refuses a provider token older than an hour and one refreshed more than every 20 minutes. */
  const providerToken = (): string => {
    const now = Math.floor(Date.now() / 1000);
    if (jwt && now - jwt.issuedAt < 40 * 60) return jwt.value;
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: options.keyId })).toString('base64url');
    const claims = Buffer.from(JSON.stringify({ iss: options.teamId, iat: now })).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${claims}`), {
      key: options.privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
    jwt = { value: `${header}.${claims}.${signature}`, issuedAt: now };
    return jwt.value;
  };

  const open = (): ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    const s = connect(options.origin, options.ca ? { ca: options.ca } : {});
    s.on('error', () => {
      if (session === s) session = null;
    });
    s.on('close', () => {
      if (session === s) session = null;
    });
    s.on('goaway', () => {
      if (session === s) session = null;
    });
    s.setTimeout(60_000, () => s.close());
    s.unref();
    session = s;
    return s;
  };

  return {
    name: 'apns',
    close() {
      session?.close();
      session = null;
    },
    send(target, message) {
      if (!HEX_TOKEN.test(target.token))
        return Promise.resolve({ ok: false, reason: 'not an APNs device token', gone: true });
      return new Promise<SendOutcome>((resolve) => {
        let s: ClientHttp2Session;
        try {
          s = open();
        } catch (e) {
          resolve({ ok: false, reason: `APNs unreachable: ${(e as Error).message}` });
          return;
        }
        const payload = JSON.parse(payloadOf(message));
        const body = JSON.stringify({
          aps: { alert: { title: message.title, body: message.body } },
          ...payload,
        });
        const req = s.request({
          ':method': 'POST',
          ':path': `/3/device/${target.token}`,
          authorization: `bearer ${providerToken()}`,
          'apns-topic': options.topic,
          'apns-push-type': 'alert',
          // Quiet hours already dropped what must not arrive late: never stored for later.
          'apns-expiration': '0',
          'content-type': 'application/json',
        });
        let status = 0;
        const chunks: Buffer[] = [];
        req.setTimeout(options.timeoutMs, () => {
          req.close(constants.NGHTTP2_CANCEL);
          resolve({ ok: false, reason: `APNs gave no answer within ${options.timeoutMs} ms` });
        });
        req.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('error', (e) => resolve({ ok: false, reason: `APNs unreachable: ${e.message}` }));
        req.on('end', () => {
          if (status === 200) return resolve({ ok: true });
          let reason = '';
          try {
            reason = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).reason ?? '');
          } catch {
            /* no JSON body */
          }
          const gone =
            status === 410 || (status === 400 && (reason === 'BadDeviceToken' || reason === 'DeviceTokenNotForTopic'));
          resolve({ ok: false, reason: `APNs answered ${status}${reason ? ` ${reason.slice(0, 100)}` : ''}`, gone });
        });
        req.end(body);
      });
    },
  };
}
