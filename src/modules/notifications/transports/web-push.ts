/**
 * Web Push (RFC 8030, payload encryption RFC 8291, VAPID RFC 8292). `web-push` encrypts the payload and signs the
 * VAPID header (`generateRequestDetails`); the POST itself is made here, to the host and path the endpoint check
 * read, on port 443, through a lookup that refuses non-public addresses. A device's token is its endpoint URL; its
 * keys are stored beside.
 */
import { request, type Agent } from 'node:https';
import webpush from 'web-push';
import { payloadOf, type SendOutcome, type Transport } from './transport.ts';
import { checkWebPushEndpoint, publicAddressLookup, type PushEndpoint } from './web-push-endpoint.ts';

export interface WebPushOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  allowedHosts: readonly string[];
  timeoutMs: number;
  /** TLS agent (tests route the connection to their stand-in push service and trust its certificate through it). */
  agent?: Agent;
  /** Seconds the push service keeps an undelivered message (TTL header). */
  ttlSeconds?: number;
}

/** One bounded POST to a checked endpoint; answers the status, or throws when no answer came. */
function post(
  endpoint: PushEndpoint,
  details: webpush.RequestDetails,
  options: WebPushOptions,
): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: endpoint.host,
        port: 443,
        path: endpoint.path,
        method: details.method,
        headers: details.headers,
        lookup: publicAddressLookup,
        timeout: options.timeoutMs,
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}

export function webPushTransport(options: WebPushOptions): Transport {
  return {
    name: 'web_push',
    async send(target, message): Promise<SendOutcome> {
      const checked = checkWebPushEndpoint(target.token, options.allowedHosts);
      if (!checked.ok) return { ok: false, reason: checked.problem };
      if (!target.web_push_p256dh || !target.web_push_auth) return { ok: false, reason: 'subscription keys missing' };
      let details: webpush.RequestDetails;
      try {
        details = webpush.generateRequestDetails(
          { endpoint: checked.endpoint.href, keys: { p256dh: target.web_push_p256dh, auth: target.web_push_auth } },
          payloadOf(message),
          { vapidDetails: options.vapid, TTL: options.ttlSeconds ?? 3600 },
        );
      } catch (e) {
        return { ok: false, reason: `cannot encrypt for this subscription: ${(e as Error).message}`.slice(0, 300) };
      }
      try {
        const { status } = await post(checked.endpoint, details, options);
        return status >= 200 && status < 300
          ? { ok: true }
          : { ok: false, reason: `push service answered ${status}`, gone: status === 404 || status === 410 };
      } catch (e) {
        return { ok: false, reason: `push service unreachable: ${(e as Error).message}`.slice(0, 300) };
      }
    },
  };
}
