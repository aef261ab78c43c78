/** Shared by the notification tests: Web Push subscriptions, a stand-in push service, and RFC 8291 decryption. */
import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type RequestOptions, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';

export interface WebSubscription {
  token: string;
  platform: 'web';
  web_push_keys: { p256dh: string; auth: string };
  /** The browser's side: what decrypts the payload. */
  ecdh: ECDH;
  authSecret: Buffer;
}

export function webSubscription(
  endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`,
): WebSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    token: endpoint,
    platform: 'web',
    web_push_keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    ecdh,
    authSecret,
  };
}

/** The body a registration request sends (the subscription without its private half). */
export const registrationBody = (s: WebSubscription) => ({
  token: s.token,
  platform: s.platform,
  web_push_keys: s.web_push_keys,
});

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Decrypts an `aes128gcm` Web Push body (RFC 8188 framing, RFC 8291 keys) as the browser would. */
export function decryptWebPush(body: Buffer, subscription: WebSubscription): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = subscription.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), serverKey]);
  const ikm = hmac(hmac(subscription.authSecret, shared), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  return plain.subarray(0, plain.lastIndexOf(2)).toString('utf8'); // strip the 0x02 delimiter and padding
}

/** The host name the stand-in push service answers for (its certificate names it; `.test` never resolves). */
const PUSH_HOST = 'push.example.test';

/** A certificate for 127.0.0.1 and PUSH_HOST (openssl), for stand-in services over TLS. */
export function selfSignedCert(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        `subjectAltName=IP:127.0.0.1,DNS:${PUSH_HOST}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PushRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * What stands in for the network between the service and a push service: the connection the Web Push transport
 * opens to `host:443` is made to the stand-in's port on 127.0.0.1 instead (TLS still verified against `host`).
 */
class StandInRoute extends Agent {
  constructor(
    private readonly port: number,
    ca: string,
  ) {
    super({ ca, keepAlive: false });
  }

  override createConnection(options: RequestOptions) {
    return tlsConnect({
      ...(options as ConnectionOptions),
      host: '127.0.0.1',
      port: this.port,
      servername: options.servername ?? options.host ?? undefined,
    });
  }
}

/**
 * A push service for PUSH_HOST over TLS (a self-signed certificate), listening on 127.0.0.1: records requests,
 * answers `status(path)`. `origin` is the https origin endpoints name; `agent()` routes the transport's connections
 * to it.
 */
export async function startPushService(status: (path: string) => number = () => 201): Promise<{
  origin: string;
  host: string;
  cert: string;
  agent(): Agent;
  requests: PushRequest[];
  close(): Promise<void>;
}> {
  const { cert, key } = selfSignedCert();
  const requests: PushRequest[] = [];
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.statusCode = status(req.url ?? '');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://${PUSH_HOST}`,
    host: PUSH_HOST,
    cert,
    agent: () => new StandInRoute(port, cert),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
