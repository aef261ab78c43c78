/**
 * Web Push (RFC 8030, payload encryption RFC 8291, VAPID RFC 8292) through the `web-push` library, which POSTs the
 * encrypted payload to the subscription's endpoint. A device's token is that endpoint URL; its keys are stored beside.
 */
import type { Agent } from 'node:https';
import webpush from 'web-push';
import { payloadOf, type SendOutcome, type Transport } from './transport.ts';

/**
 * Why `endpoint` is not a Web Push endpoint we will POST to, or null. The worker sends to whatever URL a device
 * registered, so only https URLs on the browsers' push services (configurable: WEB_PUSH_ENDPOINT_HOSTS) are
 * accepted: otherwise a caller could make the service POST to any internal address.
 */
export function webPushEndpointProblem(endpoint: string, allowedHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "Must be the push subscription's endpoint URL.";
  }
  if (url.protocol !== 'https:') return 'The endpoint must be an https URL.';
  if (url.username || url.password) return 'The endpoint must not carry credentials.';
  const host = url.hostname.toLowerCase();
  if (!allowedHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`)))
    return 'The endpoint is not on a known push service.';
  return null;
}

export interface WebPushOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  allowedHosts: readonly string[];
  timeoutMs: number;
  /** TLS agent (tests trust their stand-in push service's certificate through it). */
  agent?: Agent;
  /** Seconds the push service keeps an undelivered message (TTL header). */
  ttlSeconds?: number;
}

export function webPushTransport(options: WebPushOptions): Transport {
  return {
    name: 'web_push',
    async send(target, message): Promise<SendOutcome> {
      const problem = webPushEndpointProblem(target.token, options.allowedHosts);
      if (problem) return { ok: false, reason: problem };
      if (!target.web_push_p256dh || !target.web_push_auth) return { ok: false, reason: 'subscription keys missing' };
      try {
        const res = await webpush.sendNotification(
          { endpoint: target.token, keys: { p256dh: target.web_push_p256dh, auth: target.web_push_auth } },
          payloadOf(message),
          {
            vapidDetails: options.vapid,
            TTL: options.ttlSeconds ?? 3600,
            timeout: options.timeoutMs,
            ...(options.agent ? { agent: options.agent } : {}),
          },
        );
        return res.statusCode >= 200 && res.statusCode < 300
          ? { ok: true }
          : { ok: false, reason: `push service answered ${res.statusCode}` };
      } catch (e) {
        const status = (e as { statusCode?: number }).statusCode;
        if (typeof status === 'number')
          return { ok: false, reason: `push service answered ${status}`, gone: status === 404 || status === 410 };
        return { ok: false, reason: `push service unreachable: ${(e as Error).message}`.slice(0, 300) };
      }
    },
  };
}
