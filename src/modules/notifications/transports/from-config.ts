import type { Config } from '../../../lib/config.ts';
import { apnsTransport } from './apns.ts';
import { fcmTransport } from './fcm.ts';
import type { Transports } from './transport.ts';
import { webPushTransport } from './web-push.ts';

/**
 * The transports this deployment is configured for (Web Push: VAPID keys; APNs: a .p8 key; FCM: a service account).
 * A platform without one gets the recording transport.
 */
export function transportsFromConfig(config: Config): Transports {
  const transports: Transports = {};
  if (config.vapid)
    transports.web = webPushTransport({
      vapid: config.vapid,
      allowedHosts: config.webPushEndpointHosts,
      timeoutMs: config.pushTimeoutMs,
    });
  if (config.apns) transports.ios = apnsTransport({ ...config.apns, timeoutMs: config.pushTimeoutMs });
  if (config.fcm) transports.android = fcmTransport({ ...config.fcm, timeoutMs: config.pushTimeoutMs });
  return transports;
}
