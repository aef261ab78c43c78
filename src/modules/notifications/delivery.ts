/**
 * Delivery: drains the notification queue outside any request. Each queued row is claimed once across every process
 * (`FOR UPDATE SKIP LOCKED`, `processed_at` stamped in the claiming statement), then:
 * - dropped when the user is deactivated, when its category is off for the user, when the moment the event happened
 *   (the row's `created_at`) or the moment of delivery falls within the user's quiet hours (dropped, not delayed: a
 *   backlog drained after the window ends never brings it late, and nothing arrives during the window), or when the
 *   user has no registered device;
 * - otherwise sent to each of the user's devices through the platform's transport.
 * Every drop and every send (delivered or failed) leaves a row in `notification_outbox`. Delivery is at most once:
 * a process that dies between claiming and sending loses those pushes rather than ever sending one twice.
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { type PollLoop, pollLoop } from '../../lib/poll-loop.ts';
import {
  isOneOf,
  DEVICE_PLATFORMS,
  type NotificationCategory,
  type NotificationOutcome,
} from '../../lib/vocabulary.ts';
import { effectiveCategories } from './categories.ts';
import { inQuietHours } from './quiet-hours.ts';
import {
  recordingTransport,
  type PushMessage,
  type PushTarget,
  type SendOutcome,
  type Transport,
  type Transports,
} from './transports/transport.ts';

export interface DeliveryDeps {
  prisma: PrismaClient;
  clock: Clock;
  transports: Transports;
  /** Rows claimed per statement. */
  batchSize?: number;
  /** Bound on one send, whatever the transport does (a transport should also bound its own wait). */
  sendTimeoutMs?: number;
  /** Checked between batches: a pass draining a long queue ends early when the worker is stopping. */
  isStopping?: () => boolean;
}

export interface DeliverySummary {
  claimed: number;
  delivered: number;
  failed: number;
  dropped: number;
}

interface ClaimedRow {
  id: number;
  user_id: number;
  category: NotificationCategory;
  title: string;
  body: string;
  data: unknown;
  /** When the event happened (queued in the transaction of its change). */
  created_at: Date;
}

interface OutboxRow {
  notification_id: number;
  user_id: number;
  category: NotificationCategory;
  status: NotificationOutcome;
  reason: string | null;
  device_id: number | null;
  platform: string | null;
  transport: string | null;
  created_at: Date;
}

/** Claims up to `limit` queued rows for this process; no other process can claim them. */
async function claim(prisma: PrismaClient, limit: number, now: Date): Promise<ClaimedRow[]> {
  return prisma.$queryRaw<ClaimedRow[]>`
    UPDATE notifications SET processed_at = ${now}
    WHERE id IN (
      SELECT id FROM notifications WHERE processed_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, user_id, category::text AS category, title, body, data, created_at`;
}

async function sendWithin(
  transport: Transport,
  target: PushTarget,
  message: PushMessage,
  ms: number,
): Promise<SendOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${ms} ms` }), ms);
  });
  try {
    return await Promise.race([
      transport.send(target, message).catch(
        (e: unknown): SendOutcome => ({
          ok: false,
          reason: `transport error: ${String((e as Error)?.message ?? e)}`,
        }),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Delivers one claimed batch; answers what happened. */
async function deliverBatch(deps: DeliveryDeps, rows: ClaimedRow[], now: Date): Promise<DeliverySummary> {
  const summary: DeliverySummary = { claimed: rows.length, delivered: 0, failed: 0, dropped: 0 };
  const userIds = [...new Set(rows.map((r) => r.user_id))];
  const [preferences, devices, active] = await Promise.all([
    deps.prisma.notificationPreference.findMany({ where: { user_id: { in: userIds } } }),
    deps.prisma.device.findMany({ where: { user_id: { in: userIds } }, orderBy: { id: 'asc' } }),
    deps.prisma.user.findMany({ where: { id: { in: userIds }, is_active: true }, select: { id: true } }),
  ]);
  const prefsOf = new Map(preferences.map((p) => [p.user_id, p]));
  const activeIds = new Set(active.map((u) => u.id));
  const outbox: OutboxRow[] = [];
  const gone: number[] = [];
  const record = (row: ClaimedRow, status: NotificationOutcome, extra: Partial<OutboxRow> = {}) => {
    outbox.push({
      notification_id: row.id,
      user_id: row.user_id,
      category: row.category,
      status,
      reason: null,
      device_id: null,
      platform: null,
      transport: null,
      created_at: deps.clock.now(),
      ...extra,
    });
    summary[status === 'dropped' ? 'dropped' : status]++;
  };

  for (const row of rows) {
    // A deactivated user's installs may still be registered: they get nothing.
    if (!activeIds.has(row.user_id)) {
      record(row, 'dropped', { reason: 'user_inactive' });
      continue;
    }
    const prefs = prefsOf.get(row.user_id);
    if (!effectiveCategories(prefs?.categories ?? {})[row.category]) {
      record(row, 'dropped', { reason: 'category_disabled' });
      continue;
    }
    // Both moments: an event of the quiet hours is dropped even when a backlog reaches it after they end (never
    // delayed), and an earlier event that the worker reaches only during them is dropped too (never arrives in them).
    const { quiet_hours_start: start, quiet_hours_end: end, timezone } = prefs ?? {};
    if (
      prefs?.quiet_hours_enabled &&
      start &&
      end &&
      timezone &&
      [row.created_at, now].some((at) => inQuietHours(at, start, end, timezone))
    ) {
      record(row, 'dropped', { reason: 'quiet_hours' });
      continue;
    }
    const targets = devices.filter((d) => d.user_id === row.user_id && !gone.includes(d.id));
    if (targets.length === 0) {
      record(row, 'dropped', { reason: 'no_devices' });
      continue;
    }
    const message: PushMessage = {
      notification_id: row.id,
      category: row.category,
      title: row.title,
      body: row.body,
      data: row.data,
    };
    const outcomes = await Promise.all(
      targets.map(async (device) => {
        const platform = isOneOf(DEVICE_PLATFORMS, device.platform) ? device.platform : null;
        const transport = (platform && deps.transports[platform]) || recordingTransport;
        const target: PushTarget = {
          id: device.id,
          platform: platform ?? 'web',
          token: device.token,
          web_push_p256dh: device.web_push_p256dh,
          web_push_auth: device.web_push_auth,
        };
        const outcome = await sendWithin(transport, target, message, deps.sendTimeoutMs ?? 15_000);
        return { device, transport, outcome };
      }),
    );
    for (const { device, transport, outcome } of outcomes) {
      const where = { device_id: device.id, platform: device.platform, transport: transport.name };
      if (outcome.ok) record(row, 'delivered', where);
      else {
        record(row, 'failed', { ...where, reason: outcome.reason.slice(0, 500) });
        if (outcome.gone) gone.push(device.id);
      }
    }
  }
  await deps.prisma.notificationOutbox.createMany({ data: outbox });
  // A registration the provider no longer knows: remove it, so later pushes stop trying it.
  if (gone.length) await deps.prisma.device.deleteMany({ where: { id: { in: gone } } });
  return summary;
}

/**
 * Drains the queue: claims and delivers batches until none is left. The worker calls this on every poll; tests call
 * it to drive delivery deterministically. Throws only what the database throws (the worker logs it and polls again).
 */
export async function deliverPending(deps: DeliveryDeps): Promise<DeliverySummary> {
  const total: DeliverySummary = { claimed: 0, delivered: 0, failed: 0, dropped: 0 };
  const batchSize = deps.batchSize ?? 100;
  for (;;) {
    const now = deps.clock.now();
    // RETURNING has no order: deliver (and record) in queue order.
    const rows = (await claim(deps.prisma, batchSize, now)).sort((a, b) => a.id - b.id);
    if (rows.length === 0) return total;
    const done = await deliverBatch(deps, rows, now);
    total.claimed += done.claimed;
    total.delivered += done.delivered;
    total.failed += done.failed;
    total.dropped += done.dropped;
    if (rows.length < batchSize || deps.isStopping?.()) return total;
  }
}

export interface DeliveryWorker extends PollLoop {
  /** One pass now (what the worker does on each poll). */
  deliverPending(): Promise<DeliverySummary>;
}

/** Polls every `pollIntervalMs` (src/lib/poll-loop.ts: a failing pass is logged and retried, never fatal). */
export function createDeliveryWorker(
  deps: DeliveryDeps & {
    pollIntervalMs: number;
    /** Called after every pass with its summary, or with what it threw (operations hooks and tests observe it). */
    onPass?: (outcome: DeliverySummary | { error: unknown }) => void;
  },
): DeliveryWorker {
  const loop = pollLoop({
    pollIntervalMs: deps.pollIntervalMs,
    pass: (isStopping) => deliverPending({ ...deps, isStopping }),
    events: {
      failed: 'notifications.delivery_failed',
      recovered: 'notifications.delivery_recovered',
      done: 'notifications.delivered',
    },
    didWork: (summary) => summary.claimed > 0,
    onPass: deps.onPass,
  });
  return { ...loop, deliverPending: () => deliverPending(deps) };
}
