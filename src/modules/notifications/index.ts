/**
 * The notifications module's public entry for other modules: queue an event for its recipients. Call it with the
 * transaction of the change that caused the event, so the notification exists exactly when the change does.
 * Delivery (devices, preferences, quiet hours, transports) drains the queue later and never fails the change.
 */
export { queueNotification } from './queue.ts';
export { queueAccountEvent } from './account-events.ts';
/** What a saved scenario's re-pricing compares a move with when its owner never set a threshold. */
export { DEFAULT_SCENARIO_CHANGE_THRESHOLD } from './service.ts';
/** Delivery, for the process that runs it (src/app.ts, src/main.ts) and for tests that drive it. */
export {
  createDeliveryWorker,
  deliverPending,
  type DeliverySummary,
  type DeliveryWorker,
} from './delivery.ts';
export { transportsFromConfig } from './transports/from-config.ts';
export type {
  Transport,
  Transports,
  PushMessage,
  PushTarget,
} from './transports/transport.ts';
export { webPushTransport } from './transports/web-push.ts';
export { apnsTransport } from './transports/apns.ts';
export { fcmTransport } from './transports/fcm.ts';
export { isPublicAddress, publicAddressLookup } from './transports/web-push-endpoint.ts';
