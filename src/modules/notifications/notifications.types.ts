import { builder } from '../../graphql/builder.ts';
import {
  DevicePlatformEnum,
  NotificationCategoryEnum,
  NotificationOutcomeEnum,
  TimezoneSourceEnum,
} from '../../graphql/enums.ts';
import type { DevicePlatform } from '../../lib/vocabulary.ts';
import type { NotificationCategoryDescription } from './categories.ts';
import type { NotificationPreferences, RegisteredDevice } from './service.ts';

export { DevicePlatformEnum };

const NotificationCategoryDescriptionRef = builder
  .objectRef<NotificationCategoryDescription>('NotificationCategoryDescription')
  .implement({
    description: 'A notification category as a settings page shows it',
    fields: (t) => ({
      key: t.expose('key', { type: NotificationCategoryEnum, description: 'The key categories are set by' }),
      label: t.exposeString('label', { description: 'Its name for a settings page' }),
      description: t.exposeString('description', { description: 'What it notifies about, in a sentence' }),
      default_enabled: t.exposeBoolean('default_enabled', { description: 'The setting of a user who never chose' }),
    }),
  });

export const NotificationPreferencesRef = builder
  .objectRef<NotificationPreferences>('NotificationPreferences')
  .implement({
    description: "The caller's notification settings: which categories push, and quiet hours. Only its user reads them",
    fields: (t) => ({
      categories: t.expose('categories', {
        type: 'JSON',
        description: 'Every category key mapped to its effective setting (the user’s choice, else the default)',
      }),
      quiet_hours_enabled: t.exposeBoolean('quiet_hours_enabled', {
        description:
          'true: nothing is pushed between quiet_hours_start and quiet_hours_end, and what happens then is dropped, not pushed later',
      }),
      quiet_hours_start: t.exposeString('quiet_hours_start', { nullable: true, description: 'HH:MM in timezone' }),
      quiet_hours_end: t.exposeString('quiet_hours_end', {
        nullable: true,
        description: 'HH:MM in timezone; earlier than the start wraps midnight; equal to the start is the whole day',
      }),
      timezone: t.exposeString('timezone', {
        description: 'IANA zone quiet hours are evaluated in; empty until known',
      }),
      timezone_source: t.expose('timezone_source', {
        type: TimezoneSourceEnum,
        description: 'Where timezone came from: none yet, a device report, or the user',
      }),
      updated_at: t.expose('updated_at', {
        type: 'DateTime',
        nullable: true,
        description: 'Last change; null until the user changes something',
      }),
      available_categories: t.field({
        type: [NotificationCategoryDescriptionRef],
        description: 'Every category, with its label and default',
        resolve: (p) => [...p.available_categories],
      }),
      scenario_change_threshold: t.exposeString('scenario_change_threshold', {
        description:
          'Dollars a period, two decimals ("1.00" until set): a saved scenario\'s cheapest repayment must move by at least this much for a rate_card notification (a saved financier withdrawing notifies regardless)',
      }),
    }),
  });

export const UpdateNotificationPreferencesInput = builder.inputType('UpdateNotificationPreferencesInput', {
  description: 'Notification settings to change; an absent field is left as it is',
  fields: (t) => ({
    categories: t.field({ type: 'JSON', description: 'Map of category key to boolean; an unknown key is refused' }),
    quiet_hours_enabled: t.boolean({ description: 'Turn quiet hours on or off; null leaves it unchanged' }),
    quiet_hours_start: t.string({ description: 'HH:MM (24-hour); null clears it' }),
    quiet_hours_end: t.string({ description: 'HH:MM (24-hour); null clears it' }),
    timezone: t.string({
      description: "IANA zone; '' clears it (refused while quiet hours are on); null leaves it unchanged",
    }),
    follow_device: t.boolean({
      description: "true: timezone is the device's zone (timezone_source device); later registrations keep it current",
    }),
    scenario_change_threshold: t.field({
      type: 'Decimal',
      description:
        "Dollars, 0 to 1000000.00, at most 2 decimal places: how far a saved scenario's cheapest repayment must move to notify; null leaves it unchanged",
    }),
  }),
});

export const WebPushKeysInput = builder.inputType('WebPushKeysInput', {
  description: "A PushSubscription's keys (subscription.toJSON().keys), base64url",
  fields: (t) => ({
    p256dh: t.string({ required: true, description: "The browser's public key (keys.p256dh)" }),
    auth: t.string({ required: true, description: 'The authentication secret (keys.auth)' }),
  }),
});

export const DeviceRef = builder.objectRef<RegisteredDevice>('Device').implement({
  description: 'A push registration (its token is never sent back)',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The registration's id" }),
    platform: t.expose('platform', { type: DevicePlatformEnum, description: 'Where the install lives' }),
    timezone: t.exposeString('timezone', { description: 'The zone this install reported; empty when none' }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'First registration' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'Latest registration (or refresh)' }),
  }),
});

export const DeviceUnregisteredRef = builder.objectRef<{ removed: boolean }>('DeviceUnregistered').implement({
  description: 'The answer to unregisterDevice',
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
    id: t.exposeInt('id', { description: "The entry's id" }),
    notification_id: t.exposeInt('notification_id', {
      description: 'The notification it delivered; entries of one notification share it',
    }),
    category: t.expose('category', { type: NotificationCategoryEnum, description: "The notification's category" }),
    status: t.expose('status', { type: NotificationOutcomeEnum, description: 'What delivery did' }),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        "dropped: user_inactive, category_disabled, quiet_hours or no_devices; failed: the transport's report",
    }),
    device_id: t.exposeInt('device_id', { nullable: true, description: 'The device sent to; null on a drop' }),
    // Stored as text; only delivery writes it, from the device's platform.
    platform: t.field({
      type: DevicePlatformEnum,
      nullable: true,
      description: "The device's platform; null on a drop",
      select: { platform: true },
      resolve: (o) => o.platform as DevicePlatform | null,
    }),
    transport: t.exposeString('transport', {
      nullable: true,
      description: 'How it went out: web_push, apns, fcm or record (no transport configured); null on a drop',
    }),
    title: t.string({
      description: "The notification's title",
      select: { notification: { select: { title: true } } },
      resolve: (o) => o.notification.title,
    }),
    body: t.string({
      description: "The notification's text",
      select: { notification: { select: { body: true } } },
      resolve: (o) => o.notification.body,
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When delivery decided' }),
  }),
});
