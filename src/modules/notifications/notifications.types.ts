import { builder } from '../../graphql/builder.ts';
import { DEVICE_PLATFORMS, NOTIFICATION_CATEGORIES, NOTIFICATION_OUTCOMES } from '../../lib/vocabulary.ts';
import type { NotificationCategoryDescription } from './categories.ts';
import type { NotificationPreferences, RegisteredDevice } from './service.ts';

export const NotificationCategoryEnum = builder.enumType('NotificationCategory', {
  description: 'A closed set: there is never a billing, plan, trial or marketing category',
  values: NOTIFICATION_CATEGORIES,
});
export const DevicePlatformEnum = builder.enumType('DevicePlatform', {
  description: 'web: Web Push (token = the subscription endpoint URL); ios: APNs; android: FCM',
  values: DEVICE_PLATFORMS,
});
export const NotificationOutcomeEnum = builder.enumType('NotificationOutcome', { values: NOTIFICATION_OUTCOMES });

export const NotificationCategoryDescriptionRef = builder
  .objectRef<NotificationCategoryDescription>('NotificationCategoryDescription')
  .implement({
    fields: (t) => ({
      key: t.expose('key', { type: NotificationCategoryEnum }),
      label: t.exposeString('label'),
      description: t.exposeString('description'),
      default_enabled: t.exposeBoolean('default_enabled', { description: 'The setting of a user who never chose' }),
    }),
  });

export const NotificationPreferencesRef = builder
  .objectRef<NotificationPreferences>('NotificationPreferences')
  .implement({
    fields: (t) => ({
      categories: t.expose('categories', {
        type: 'JSON',
        description: 'Every category key mapped to its effective setting (the user’s choice, else the default)',
      }),
      quiet_hours_enabled: t.exposeBoolean('quiet_hours_enabled'),
      quiet_hours_start: t.exposeString('quiet_hours_start', { nullable: true, description: 'HH:MM in timezone' }),
      quiet_hours_end: t.exposeString('quiet_hours_end', {
        nullable: true,
        description: 'HH:MM in timezone; earlier than the start wraps midnight; equal to the start is the whole day',
      }),
      timezone: t.exposeString('timezone', {
        description: 'IANA zone quiet hours are evaluated in; empty until known',
      }),
      timezone_source: t.exposeString('timezone_source', {
        description:
          "'' (no zone yet), device (latest zone a registered install reported) or user (chosen; never overwritten)",
      }),
      updated_at: t.expose('updated_at', { type: 'DateTime', nullable: true }),
      available_categories: t.field({
        type: [NotificationCategoryDescriptionRef],
        resolve: (p) => [...p.available_categories],
      }),
    }),
  });

export const UpdateNotificationPreferencesInput = builder.inputType('UpdateNotificationPreferencesInput', {
  fields: (t) => ({
    categories: t.field({ type: 'JSON', description: 'Map of category key to boolean; an unknown key is refused' }),
    quiet_hours_enabled: t.boolean({ description: 'null leaves it unchanged' }),
    quiet_hours_start: t.string({ description: 'HH:MM (24-hour); null clears it' }),
    quiet_hours_end: t.string({ description: 'HH:MM (24-hour); null clears it' }),
    timezone: t.string({
      description: "IANA zone; '' clears it (refused while quiet hours are on); null leaves it unchanged",
    }),
    follow_device: t.boolean({
      description: "true: timezone is the device's zone (timezone_source device); later registrations keep it current",
    }),
  }),
});

export const WebPushKeysInput = builder.inputType('WebPushKeysInput', {
  description: "A PushSubscription's keys (subscription.toJSON().keys), base64url",
  fields: (t) => ({ p256dh: t.string({ required: true }), auth: t.string({ required: true }) }),
});

export const DeviceRef = builder.objectRef<RegisteredDevice>('Device').implement({
  description: 'A push registration (its token is never sent back)',
  fields: (t) => ({
    id: t.exposeInt('id'),
    platform: t.expose('platform', { type: DevicePlatformEnum }),
    timezone: t.exposeString('timezone', { description: 'The zone this install reported; empty when none' }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

export const DeviceUnregisteredRef = builder.objectRef<{ removed: boolean }>('DeviceUnregistered').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', {
      description: 'Whether the caller had registered that token (REST answers 204 either way)',
    }),
  }),
});

builder.prismaObject('NotificationOutbox', {
  name: 'NotificationOutboxEntry',
  description: 'What delivery did with one notification: one entry per device sent to, or one for a drop',
  fields: (t) => ({
    id: t.exposeInt('id'),
    notification_id: t.exposeInt('notification_id'),
    category: t.expose('category', { type: NotificationCategoryEnum }),
    status: t.expose('status', { type: NotificationOutcomeEnum }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: "dropped: category_disabled, quiet_hours or no_devices; failed: the transport's report",
    }),
    device_id: t.exposeInt('device_id', { nullable: true }),
    platform: t.exposeString('platform', { nullable: true }),
    transport: t.exposeString('transport', { nullable: true, description: 'web_push, apns, fcm or record' }),
    title: t.string({ select: { notification: { select: { title: true } } }, resolve: (o) => o.notification.title }),
    body: t.string({ select: { notification: { select: { body: true } } }, resolve: (o) => o.notification.body }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
  }),
});
