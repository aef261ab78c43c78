import type { Config } from '../../../config.ts';
import type { Transports } from './transport.ts';
import { webPushTransport } from './web-push.ts';

/**
 * The transports this deployment is configured for. Web Push needs VAPID keys. APNs and FCM are not built yet
 * (docs/notifications.md says what they need): iOS and Android devices get the recording transport until they are.
 */
export function transportsFromConfig(config: Config): Transports {
  const transports: Transports = {};
  if (config.vapid)
    transports.web = webPushTransport({
      vapid: config.vapid,
      allowedHosts: config.webPushEndpointHosts,
      timeoutMs: config.pushTimeoutMs,
    });
  return transports;
}
