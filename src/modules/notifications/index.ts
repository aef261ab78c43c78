/**
 * The notifications module's public entry for other modules: queue an event for its recipients. Call it with the
 * transaction of the change that caused the event, so the notification exists exactly when the change does.
 * Delivery (devices, preferences, quiet hours, transports) drains the queue later and never fails the change.
 */
export { queueNotification, type NotificationEvent } from './queue.ts';
