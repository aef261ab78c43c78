/**
 * The delivery port: how one push reaches one device. Delivery picks a transport by the device's platform (web:
 * Web Push; ios: APNs; android: FCM) and falls back to the recording transport where none is configured.
 */
import type { DevicePlatform, NotificationCategory } from '../../../lib/vocabulary.ts';

export interface PushMessage {
  notification_id: number;
  category: NotificationCategory;
  title: string;
  body: string;
  data: unknown;
}

export interface PushTarget {
  id: number;
  platform: DevicePlatform;
  token: string;
  web_push_p256dh: string | null;
  web_push_auth: string | null;
}

/**
 * `gone`: the provider says this registration no longer exists (Web Push 404/410, APNs 410, FCM UNREGISTERED); the
 * device is removed so later pushes stop trying it.
 */
export type SendOutcome = { ok: true } | { ok: false; reason: string; gone?: boolean };

export interface Transport {
  /** Recorded in the outbox: web_push, apns, fcm, record. */
  readonly name: string;
  /** Answers the outcome; may also throw (recorded as failed, never propagated). Must bound its own wait. */
  send(target: PushTarget, message: PushMessage): Promise<SendOutcome>;
}

export type Transports = Partial<Record<DevicePlatform, Transport>>;

/** The default transport: sends nothing; the outbox row it leaves is the record of what would have been pushed. */
export const recordingTransport: Transport = {
  name: 'record',
  send: async () => ({ ok: true }),
};

/** The JSON a client receives (Web Push payload; APNs/FCM carry the same fields). */
export function payloadOf(message: PushMessage): string {
  return JSON.stringify({
    id: message.notification_id,
    category: message.category,
    title: message.title,
    body: message.body,
    data: message.data,
  });
}
