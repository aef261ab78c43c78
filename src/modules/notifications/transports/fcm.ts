/**
 * FCM (Firebase Cloud Messaging) HTTP v1: an OAuth2 access token minted from the service account (RS256 JWT bearer
 * grant), cached until shortly before it expires, then one POST per message.
 */
import { sign } from 'node:crypto';
import { request, type Agent } from 'node:https';
import type { SendOutcome, Transport } from './transport.ts';

export interface FcmOptions {
  projectId: string;
  clientEmail: string;
  /** The service account's RSA private key (PEM). */
  privateKey: string;
  /** https://oauth2.googleapis.com/token */
  tokenUrl: string;
  /** https://fcm.googleapis.com */
  apiOrigin: string;
  timeoutMs: number;
  /** TLS agent (tests trust their stand-in's certificate through it). */
  agent?: Agent;
}

/** One HTTPS exchange, bounded; answers status and parsed JSON (or null). */
function call(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
  timeoutMs: number,
  agent?: Agent,
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let json: any = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

export function fcmTransport(options: FcmOptions): Transport {
  let access: { token: string; expiresAt: number } | null = null;

  const accessToken = async (): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    if (access && access.expiresAt - 60 > now) return access.token;
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
    const claims = Buffer.from(
      JSON.stringify({
        iss: options.clientEmail,
        scope: 'https://www.googleapis.com/auth/firebase.messaging',
        aud: options.tokenUrl,
        iat: now,
        exp: now + 3600,
      }),
    ).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${claims}`), options.privateKey).toString('base64url');
    const res = await call(
      options.tokenUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: `${header}.${claims}.${signature}`,
        }).toString(),
      },
      options.timeoutMs,
      options.agent,
    );
    if (res.status !== 200 || typeof res.json?.access_token !== 'string')
      throw new Error(`FCM token endpoint answered ${res.status}`);
    access = { token: res.json.access_token, expiresAt: now + Number(res.json.expires_in ?? 3600) };
    return access.token;
  };

  return {
    name: 'fcm',
    async send(target, message): Promise<SendOutcome> {
      let token: string;
      try {
        token = await accessToken();
      } catch (e) {
        return { ok: false, reason: `FCM authorisation failed: ${(e as Error).message}`.slice(0, 300) };
      }
      const body = JSON.stringify({
        message: {
          token: target.token,
          notification: { title: message.title, body: message.body },
          // FCM data values are strings.
          data: {
            id: String(message.notification_id),
            category: message.category,
            payload: JSON.stringify(message.data),
          },
        },
      });
      try {
        const res = await call(
          `${options.apiOrigin}/v1/projects/${encodeURIComponent(options.projectId)}/messages:send`,
          { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body },
          options.timeoutMs,
          options.agent,
        );
        if (res.status === 200) return { ok: true };
        if (res.status === 401) access = null; // minted again on the next send
        const details: any[] = Array.isArray(res.json?.error?.details) ? res.json.error.details : [];
        const code = String(details.find((d) => d?.errorCode)?.errorCode ?? res.json?.error?.status ?? '');
        const gone = code === 'UNREGISTERED' || (res.status === 404 && code === 'NOT_FOUND');
        return { ok: false, reason: `FCM answered ${res.status}${code ? ` ${code.slice(0, 60)}` : ''}`, gone };
      } catch (e) {
        return { ok: false, reason: `FCM unreachable: ${(e as Error).message}`.slice(0, 300) };
      }
    },
  };
}
