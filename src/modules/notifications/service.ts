/**
 * Notification preferences and push-device registrations: validate, load, save. No GraphQL here; both surfaces call
 * these through the module's GraphQL fields.
 */
import type { Db } from '../../lib/db.ts';
import { FieldErrors, ValidationError } from '../../lib/errors.ts';
import {
  DEVICE_PLATFORMS,
  NOTIFICATION_CATEGORIES,
  isOneOf,
  type DevicePlatform,
  type NotificationCategory,
  type TimezoneSource,
} from '../../lib/vocabulary.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { CATEGORY_DESCRIPTIONS, effectiveCategories, type NotificationCategoryDescription } from './categories.ts';
import { CLOCK_TIME } from './quiet-hours.ts';
import { canonicalTimeZone } from './timezone.ts';
import { checkWebPushEndpoint } from './transports/web-push-endpoint.ts';

export interface NotificationPreferences {
  categories: Record<NotificationCategory, boolean>;
  quiet_hours_enabled: boolean;
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  timezone: string;
  timezone_source: TimezoneSource;
  updated_at: Date | null;
  available_categories: readonly NotificationCategoryDescription[];
  /** Dollars a period, two decimals ("1.00"): how far a saved scenario's cheapest repayment moves before a notice. */
  scenario_change_threshold: string;
}

interface PreferenceRow {
  categories: unknown;
  quiet_hours_enabled: boolean;
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  timezone: string;
  timezone_source: string;
  updated_at: Date | null;
  /** The column (a Prisma Decimal, or the driver's text or number in a raw read). */
  scenario_change_threshold: { toString(): string };
}

/** The threshold a user who never set one has (the column's default), and the largest one accepted. */
export const DEFAULT_SCENARIO_CHANGE_THRESHOLD = '1.00';
const MAX_SCENARIO_CHANGE_THRESHOLD = 1_000_000;

/** What a user who never changed anything has. */
const DEFAULT_ROW: PreferenceRow = {
  categories: {},
  quiet_hours_enabled: false,
  quiet_hours_start: null,
  quiet_hours_end: null,
  timezone: '',
  timezone_source: '',
  updated_at: null,
  scenario_change_threshold: DEFAULT_SCENARIO_CHANGE_THRESHOLD,
};

function present(row: PreferenceRow): NotificationPreferences {
  return {
    categories: effectiveCategories(row.categories),
    quiet_hours_enabled: row.quiet_hours_enabled,
    quiet_hours_start: row.quiet_hours_start,
    quiet_hours_end: row.quiet_hours_end,
    timezone: row.timezone,
    timezone_source: row.timezone_source === 'device' || row.timezone_source === 'user' ? row.timezone_source : '',
    updated_at: row.updated_at,
    available_categories: CATEGORY_DESCRIPTIONS,
    scenario_change_threshold: Number(String(row.scenario_change_threshold)).toFixed(2),
  };
}

export async function getPreferences(ctx: ServiceContext, userId: number): Promise<NotificationPreferences> {
  const row = await ctx.prisma.notificationPreference.findUnique({ where: { user_id: userId } });
  return present(row ?? DEFAULT_ROW);
}

/** PATCH body; every field optional. undefined = absent; null as the spec says per field. */
export interface PreferencesPatch {
  categories?: unknown;
  quiet_hours_enabled?: boolean | null;
  quiet_hours_start?: string | null;
  quiet_hours_end?: string | null;
  timezone?: string | null;
  follow_device?: boolean | null;
  /** Dollars, >= 0, at most 2 decimal places; null leaves it unchanged. */
  scenario_change_threshold?: number | null;
}

/** Unknown keys named in one 400 at most; the rest are summarised (a body may carry thousands). */
const MAX_NAMED_KEYS = 5;

function quoted(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}

/**
 * Applies a PATCH. The row is locked for the read-check-write, so two concurrent PATCHes (one switching quiet hours
 * on, one clearing the zone) cannot together leave quiet hours on without a zone.
 */
export async function updatePreferences(
  ctx: ServiceContext,
  userId: number,
  patch: PreferencesPatch,
): Promise<NotificationPreferences> {
  const errors = new FieldErrors();

  // categories: a map of known keys to booleans; null or absent leaves every choice unchanged.
  const categoryChoices: Partial<Record<NotificationCategory, boolean>> = {};
  if (patch.categories !== undefined && patch.categories !== null) {
    const map = patch.categories;
    if (typeof map !== 'object' || Array.isArray(map)) {
      errors.add('categories', 'Must be a JSON object mapping category keys to booleans.');
    } else {
      const unknown: string[] = [];
      for (const [key, value] of Object.entries(map)) {
        if (!isOneOf(NOTIFICATION_CATEGORIES, key)) unknown.push(key);
        else if (typeof value !== 'boolean') errors.add(`categories.${key}`, 'Must be a valid boolean.');
        else categoryChoices[key] = value;
      }
      for (const key of unknown.slice(0, MAX_NAMED_KEYS))
        errors.add('categories', `Unknown category ${quoted(key)}. Known: ${NOTIFICATION_CATEGORIES.join(', ')}.`);
      if (unknown.length > MAX_NAMED_KEYS)
        errors.add('categories', `And ${unknown.length - MAX_NAMED_KEYS} more unknown categories.`);
    }
  }

  for (const field of ['quiet_hours_start', 'quiet_hours_end'] as const) {
    const value = patch[field];
    if (typeof value === 'string' && !CLOCK_TIME.test(value))
      errors.add(field, 'Must be a 24-hour time HH:MM, from 00:00 to 23:59.');
  }

  // timezone: null/absent unchanged; '' clears; anything else must be an IANA zone.
  let zone: string | undefined;
  if (typeof patch.timezone === 'string') {
    if (patch.timezone === '') zone = '';
    else {
      const canonical = canonicalTimeZone(patch.timezone);
      if (canonical === null)
        errors.add('timezone', 'Unrecognised time zone: send an IANA zone name such as Australia/Sydney.');
      else zone = canonical;
    }
  }
  const followDevice = patch.follow_device === true;
  if (followDevice && (patch.timezone === undefined || patch.timezone === null || patch.timezone === ''))
    errors.add('timezone', "Required with follow_device: true (the device's zone).");
  const threshold = patch.scenario_change_threshold;
  if (typeof threshold === 'number') {
    if (threshold < 0) errors.add('scenario_change_threshold', 'Ensure this value is greater than or equal to 0.');
    else if (threshold > MAX_SCENARIO_CHANGE_THRESHOLD)
      errors.add('scenario_change_threshold', 'Ensure this value is less than or equal to 1000000.00.');
    // More places would be rounded silently by the column (two decimals).
    else if (Number(threshold.toFixed(2)) !== threshold)
      errors.add('scenario_change_threshold', 'Ensure there are no more than 2 decimal places.');
  }
  errors.throwIfAny();

  return ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO notification_preferences (user_id) VALUES (${userId}) ON CONFLICT (user_id) DO NOTHING`;
    const [current] = await tx.$queryRaw<PreferenceRow[]>`
      SELECT categories, quiet_hours_enabled, quiet_hours_start, quiet_hours_end, timezone, timezone_source, updated_at,
             scenario_change_threshold
      FROM notification_preferences WHERE user_id = ${userId} FOR UPDATE`;
    const next: PreferenceRow = { ...current };
    if (Object.keys(categoryChoices).length)
      next.categories = { ...(current.categories as Record<string, boolean>), ...categoryChoices };
    if (typeof patch.quiet_hours_enabled === 'boolean') next.quiet_hours_enabled = patch.quiet_hours_enabled;
    // A window time's null is the resource's own null: it clears that end of the window.
    if (patch.quiet_hours_start !== undefined) next.quiet_hours_start = patch.quiet_hours_start;
    if (patch.quiet_hours_end !== undefined) next.quiet_hours_end = patch.quiet_hours_end;
    if (zone !== undefined) {
      next.timezone = zone;
      next.timezone_source = zone === '' ? '' : followDevice ? 'device' : 'user';
    }

    // The state after the update must be usable: quiet hours on need both times and a zone.
    if (next.quiet_hours_enabled) {
      const invalid = new FieldErrors();
      if (!next.quiet_hours_start)
        invalid.add('quiet_hours_start', 'Required while quiet hours are on: quiet hours need a complete window.');
      if (!next.quiet_hours_end)
        invalid.add('quiet_hours_end', 'Required while quiet hours are on: quiet hours need a complete window.');
      if (!next.timezone)
        invalid.add(
          'timezone',
          zone === ''
            ? 'Cannot be cleared while quiet hours are on: they are evaluated in this zone.'
            : 'Required while quiet hours are on: set one, or register a device that reports one.',
        );
      invalid.throwIfAny();
    }

    const saved = await tx.notificationPreference.update({
      where: { user_id: userId },
      data: {
        categories: next.categories as object,
        quiet_hours_enabled: next.quiet_hours_enabled,
        quiet_hours_start: next.quiet_hours_start,
        quiet_hours_end: next.quiet_hours_end,
        timezone: next.timezone,
        timezone_source: next.timezone_source,
        ...(typeof threshold === 'number' ? { scenario_change_threshold: threshold.toFixed(2) } : {}),
        updated_at: ctx.clock.now(),
      },
    });
    return present(saved);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Devices

/** Registrations kept per user; registering one more drops the least recently refreshed (each push fans out to all). */
const MAX_DEVICES_PER_USER = 20;

/** Longest push token accepted (a Web Push endpoint URL is the longest kind, a few hundred characters). */
const MAX_DEVICE_TOKEN_LENGTH = 2048;
/** Printable ASCII only: every provider's tokens are; it also keeps the unique index's entries small. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const APNS_TOKEN = /^[0-9A-Fa-f]{64,200}$/;
const FCM_TOKEN = /^[A-Za-z0-9_:.-]{20,}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export interface DeviceRegistration {
  token: string;
  platform: DevicePlatform;
  /** The zone the install reports (IANA); empty or absent when it reports none. */
  timezone?: string | null;
  /** Web Push only: the subscription's keys. */
  web_push_keys?: { p256dh: string; auth: string } | null;
}

export interface RegisteredDevice {
  id: number;
  platform: DevicePlatform;
  timezone: string;
  created_at: Date;
  updated_at: Date;
}

function base64UrlBytes(value: string): number {
  return BASE64URL.test(value) ? Buffer.from(value, 'base64url').length : -1;
}

/** Why `token` is not a usable token of `platform`, or null. */
function tokenProblem(token: string, platform: DevicePlatform, allowedHosts: readonly string[]): string | null {
  if (platform === 'ios' && !APNS_TOKEN.test(token)) return 'An APNs device token is 64 or more hexadecimal digits.';
  if (platform === 'android' && !FCM_TOKEN.test(token)) return 'Not an FCM registration token.';
  if (platform === 'web') {
    const checked = checkWebPushEndpoint(token, allowedHosts);
    return checked.ok ? null : checked.problem;
  }
  return null;
}

/**
 * Registers (or refreshes) a push device for the caller. A token belongs to one user: registering it moves it from
 * whoever had it (the latest sign-in on that install wins). The zone the install reports becomes the user's zone
 * unless the user chose one (`timezone_source` = `user`).
 */
export async function registerDevice(
  ctx: ServiceContext,
  userId: number,
  input: DeviceRegistration,
): Promise<RegisteredDevice> {
  const errors = new FieldErrors();
  const { token, platform } = input;
  if (!isOneOf(DEVICE_PLATFORMS, platform)) errors.add('platform', `Must be one of: ${DEVICE_PLATFORMS.join(', ')}.`);
  if (token.length === 0) errors.add('token', 'This field is required.');
  else if (token.length > MAX_DEVICE_TOKEN_LENGTH)
    errors.add('token', `Must be at most ${MAX_DEVICE_TOKEN_LENGTH} characters.`);
  else if (!PRINTABLE_ASCII.test(token)) errors.add('token', 'Must be printable ASCII.');
  else if (isOneOf(DEVICE_PLATFORMS, platform)) {
    const problem = tokenProblem(token, platform, ctx.config.webPushEndpointHosts);
    if (problem) errors.add('token', problem);
  }
  let keys: { p256dh: string; auth: string } | null = null;
  if (platform === 'web') {
    const k = input.web_push_keys;
    if (!k) errors.add('web_push_keys', "Required for web: the subscription's keys (p256dh, auth).");
    else {
      // p256dh: an uncompressed P-256 point (65 bytes); auth: a 16-byte secret (RFC 8291).
      if (k.p256dh.length > 200 || base64UrlBytes(k.p256dh) !== 65)
        errors.add('web_push_keys.p256dh', 'Must be the base64url P-256 public key of the subscription (65 bytes).');
      if (k.auth.length > 100 || base64UrlBytes(k.auth) !== 16)
        errors.add('web_push_keys.auth', 'Must be the base64url authentication secret of the subscription (16 bytes).');
      keys = k;
    }
  }
  let zone = '';
  if (input.timezone) {
    const canonical = canonicalTimeZone(input.timezone);
    if (canonical === null)
      errors.add('timezone', 'Unrecognised time zone: send an IANA zone name such as Australia/Sydney.');
    else zone = canonical;
  }
  errors.throwIfAny();

  const now = ctx.clock.now();
  return ctx.prisma.$transaction(
    async (tx) => {
      // One registration per user at a time, or two would each trim without the other's new row and together keep more
      // than the cap. The user row is the per-user lock (docs/operations.md, "Write conflicts"), taken first.
      await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1::int FOR NO KEY UPDATE', userId);
      // One statement: two users registering one token at once leave it with exactly one of them.
      const [device] = await tx.$queryRaw<RegisteredDevice[]>`
      INSERT INTO devices (user_id, token, platform, timezone, web_push_p256dh, web_push_auth, created_at, updated_at)
      VALUES (${userId}, ${token}, ${platform}, ${zone}, ${keys?.p256dh ?? null}, ${keys?.auth ?? null}, ${now}, ${now})
      ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform,
        timezone = EXCLUDED.timezone, web_push_p256dh = EXCLUDED.web_push_p256dh,
        web_push_auth = EXCLUDED.web_push_auth, updated_at = EXCLUDED.updated_at,
        created_at = CASE WHEN devices.user_id = EXCLUDED.user_id THEN devices.created_at ELSE EXCLUDED.created_at END
      RETURNING id, platform, timezone, created_at, updated_at`;
      await tx.$executeRaw`
      DELETE FROM devices WHERE user_id = ${userId} AND id NOT IN (
        SELECT id FROM devices WHERE user_id = ${userId} ORDER BY updated_at DESC, id DESC LIMIT ${MAX_DEVICES_PER_USER})`;
      if (zone) await reportDeviceZone(tx, userId, zone, now);
      return device;
    }, // Registrations of one user queue on its row: wait for the connection and the lock longer than Prisma's default.
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/**
 * A device's reported zone becomes the user's, unless the user chose one. One statement, so a concurrent PATCH that
 * sets `timezone_source` = `user` is never overwritten by a report that read the row before it.
 */
async function reportDeviceZone(db: Db, userId: number, zone: string, now: Date): Promise<void> {
  await db.$executeRaw`
    INSERT INTO notification_preferences (user_id, timezone, timezone_source, updated_at)
    VALUES (${userId}, ${zone}, 'device', ${now})
    ON CONFLICT (user_id) DO UPDATE SET timezone = EXCLUDED.timezone, timezone_source = 'device',
      updated_at = CASE WHEN notification_preferences.timezone = EXCLUDED.timezone
                         AND notification_preferences.timezone_source = 'device'
                        THEN notification_preferences.updated_at ELSE EXCLUDED.updated_at END
    WHERE notification_preferences.timezone_source <> 'user'`;
}

/**
 * Removes the caller's registration of `token`; another user's registration of it is left alone. Idempotent. Only a
 * missing token is refused: one that registration refuses (over-long, not printable ASCII) was never registered, so
 * it is answered like any unregistered token (nothing removed), without a query.
 */
export async function unregisterDevice(ctx: ServiceContext, userId: number, token: string): Promise<boolean> {
  if (token.length === 0) throw ValidationError.of('token', 'This field is required.');
  if (token.length > MAX_DEVICE_TOKEN_LENGTH || !PRINTABLE_ASCII.test(token)) return false;
  const { count } = await ctx.prisma.device.deleteMany({ where: { token, user_id: userId } });
  return count > 0;
}
