/**
 * Spec: Events (pushes to registered devices in three categories, each toggled by the user; a push within quiet
 * hours is dropped, not delivered later). Delivery runs outside requests (docs/notifications.md): tests drive it with
 * deliverPending(), the pass the worker runs on every poll.
 */
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/db.ts';
import type { NotificationCategory } from '../../src/lib/vocabulary.ts';
import {
  createDeliveryWorker,
  deliverPending,
  queueNotification,
  webPushTransport,
  type DeliverySummary,
  type PushMessage,
  type PushTarget,
  type Transport,
  type Transports,
} from '../../src/modules/notifications/index.ts';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';
import { decryptWebPush, registrationBody, startPushService, webSubscription } from './support.ts';

const clock = new ManualClock(new Date('2026-06-01T02:00:00Z')); // 12:00 in Sydney (winter, UTC+10)
let t: TestApp;
let push: Awaited<ReturnType<typeof startPushService>>;
let session: string;
let otherSession: string;
let userId: number;
let otherId: number;

beforeAll(async () => {
  push = await startPushService((path) => (path.includes('gone') ? 410 : path.includes('broken') ? 500 : 201));
  t = await startTestApp({ clock, config: { webPushEndpointHosts: [push.host] } });
  session = (await t.login('broker.user@demo.test')).access;
  otherSession = (await t.login('broker.admin@demo.test')).access;
  userId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
  otherId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});
beforeEach(async () => {
  clock.set(new Date('2026-06-01T02:00:00Z'));
  const p = t.database.prisma;
  await p.notificationOutbox.deleteMany({});
  await p.notification.deleteMany({});
  await p.device.deleteMany({});
  await p.notificationPreference.deleteMany({});
});

/** A transport that records what it was asked to send. */
function recorder(name = 'test'): Transport & { sent: { target: PushTarget; message: PushMessage }[] } {
  const sent: { target: PushTarget; message: PushMessage }[] = [];
  const send: Transport['send'] = async (target, message) => {
    sent.push({ target, message });
    return { ok: true };
  };
  return { name, sent, send };
}

/** Queues an event that happens now on the test clock (as a producer's change in its transaction would). */
const queue = (userIds: number[], category: NotificationCategory = 'rate_card', title = 'Rate card updated') =>
  queueNotification(t.database.prisma, {
    category,
    userIds,
    title,
    body: 'Financier X changed a rate card.',
    data: { id: 7 },
    at: clock.now(),
  });
const deliver = (transports: Transports, extra: { sendTimeoutMs?: number; batchSize?: number } = {}) =>
  deliverPending({ prisma: t.database.prisma, clock, transports, ...extra });
const register = (body: unknown, token = session) =>
  t.rest('POST', '/api/v1/notifications/devices', { token, body }).then((r) => {
    if (r.status !== 200) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  });
const preferences = (body: unknown) => t.rest('PATCH', '/api/v1/notifications/preferences', { token: session, body });
const outbox = () => t.database.prisma.notificationOutbox.findMany({ orderBy: { id: 'asc' } });
const IOS = 'ab'.repeat(32);
const ANDROID = `fcm-token_${'y'.repeat(140)}`;

describe('Events: a notification reaches every registered device of its recipient, once', () => {
  it('sends to each device, records each delivery, stamps processed_at, and a second pass sends nothing', async () => {
    await register({ token: IOS, platform: 'ios' });
    await register({ token: ANDROID, platform: 'android' });
    await queue([userId]);
    const ios = recorder('apns-test');
    const android = recorder('fcm-test');
    const summary = await deliver({ ios, android });
    expect(summary).toEqual({ claimed: 1, delivered: 2, failed: 0, dropped: 0 });
    expect(ios.sent.map((s) => s.target.token)).toEqual([IOS]);
    expect(android.sent[0].message).toMatchObject({
      category: 'rate_card',
      title: 'Rate card updated',
      data: { id: 7 },
    });
    const rows = await outbox();
    expect(rows.map((r) => [r.status, r.platform, r.transport])).toEqual([
      ['delivered', 'ios', 'apns-test'],
      ['delivered', 'android', 'fcm-test'],
    ]);
    expect((await t.database.prisma.notification.findFirstOrThrow()).processed_at).toEqual(clock.now());
    expect(await deliver({ ios, android })).toEqual({ claimed: 0, delivered: 0, failed: 0, dropped: 0 });
    expect(ios.sent).toHaveLength(1);
  });

  it('a platform without a configured transport gets the default transport, which records', async () => {
    await register({ token: IOS, platform: 'ios' });
    await queue([userId]);
    await deliver({});
    expect((await outbox()).map((r) => [r.status, r.transport])).toEqual([['delivered', 'record']]);
  });

  it('a deactivated user: dropped (user_inactive), even with a registered device', async () => {
    await register({ token: IOS, platform: 'ios' });
    await t.database.prisma.user.update({ where: { id: userId }, data: { is_active: false } });
    try {
      await queue([userId]);
      const ios = recorder();
      expect(await deliver({ ios })).toMatchObject({ dropped: 1, delivered: 0 });
      expect(ios.sent).toHaveLength(0);
      expect((await outbox()).map((r) => r.reason)).toEqual(['user_inactive']);
    } finally {
      await t.database.prisma.user.update({ where: { id: userId }, data: { is_active: true } });
    }
  });

  it('a user without a device: dropped (no_devices), recorded', async () => {
    await queue([userId]);
    expect(await deliver({})).toMatchObject({ dropped: 1 });
    expect((await outbox()).map((r) => [r.status, r.reason])).toEqual([['dropped', 'no_devices']]);
  });
});

describe('Events: a category the user switched off is dropped', () => {
  it('drops the switched-off category and delivers the others', async () => {
    await register({ token: IOS, platform: 'ios' });
    await preferences({ categories: { rate_card: false } });
    await queue([userId], 'rate_card');
    await queue([userId], 'account', 'New sign-in');
    const ios = recorder();
    expect(await deliver({ ios })).toEqual({ claimed: 2, delivered: 1, failed: 0, dropped: 1 });
    expect(ios.sent.map((s) => s.message.category)).toEqual(['account']);
    expect((await outbox()).map((r) => [r.category, r.status, r.reason])).toEqual([
      ['rate_card', 'dropped', 'category_disabled'],
      ['account', 'delivered', null],
    ]);
  });
});

/** An iOS device, and quiet hours 22:00-07:00 in Sydney. */
async function iosWithSydneyQuietHours() {
  await register({ token: IOS, platform: 'ios' });
  await preferences({
    quiet_hours_enabled: true,
    quiet_hours_start: '22:00',
    quiet_hours_end: '07:00',
    timezone: 'Australia/Sydney',
  });
}

describe('Events: a push within quiet hours is dropped, not delivered later', () => {
  beforeEach(iosWithSydneyQuietHours);

  it('inside the window (23:00 Sydney): dropped; after it ends nothing of it is sent', async () => {
    clock.set(new Date('2026-06-01T13:00:00Z')); // 23:00 Sydney
    await queue([userId]);
    const ios = recorder();
    expect(await deliver({ ios })).toEqual({ claimed: 1, delivered: 0, failed: 0, dropped: 1 });
    clock.set(new Date('2026-06-01T22:00:00Z')); // 08:00 Sydney the next morning
    expect(await deliver({ ios })).toMatchObject({ claimed: 0 });
    expect(ios.sent).toHaveLength(0);
    expect((await outbox()).map((r) => [r.status, r.reason])).toEqual([['dropped', 'quiet_hours']]);
  });

  it('outside the window (08:00 Sydney): delivered; the window is read on the user’s clock, not UTC', async () => {
    clock.set(new Date('2026-06-01T22:00:00Z')); // 22:00 UTC is 08:00 in Sydney
    await queue([userId]);
    const ios = recorder();
    expect(await deliver({ ios })).toMatchObject({ delivered: 1, dropped: 0 });
  });

  it('quiet hours switched off: delivered at any hour', async () => {
    await preferences({ quiet_hours_enabled: false });
    clock.set(new Date('2026-06-01T13:00:00Z'));
    await queue([userId]);
    expect(await deliver({ ios: recorder() })).toMatchObject({ delivered: 1 });
  });
});

describe('Events: an event that happened within quiet hours is dropped, not delayed, however late delivery runs', () => {
  beforeEach(iosWithSydneyQuietHours);

  it('queued at 23:00 Sydney, delivered at 08:00 after the worker was down: dropped (quiet_hours), never sent', async () => {
    clock.set(new Date('2026-06-01T13:00:00Z')); // 23:00 Sydney: the event happens, nobody delivers
    await queue([userId]);
    clock.set(new Date('2026-06-01T22:00:00Z')); // 08:00 Sydney: the window is over, the backlog drains
    const ios = recorder();
    expect(await deliver({ ios })).toEqual({ claimed: 1, delivered: 0, failed: 0, dropped: 1 });
    expect(ios.sent).toHaveLength(0);
    const [notification] = await t.database.prisma.notification.findMany();
    expect(await outbox()).toMatchObject([
      { notification_id: notification.id, status: 'dropped', reason: 'quiet_hours', device_id: null },
    ]);
    expect(await deliver({ ios })).toMatchObject({ claimed: 0 }); // dropped for good, not retried
    expect(ios.sent).toHaveLength(0);
  });

  it('queued at 08:00 Sydney, delivered at 08:05: delivered', async () => {
    clock.set(new Date('2026-06-01T22:00:00Z')); // 08:00 Sydney
    await queue([userId]);
    clock.advance(5 * 60_000);
    const ios = recorder();
    expect(await deliver({ ios })).toEqual({ claimed: 1, delivered: 1, failed: 0, dropped: 0 });
    expect((await outbox()).map((r) => [r.status, r.reason])).toEqual([['delivered', null]]);
  });

  it('one backlog drained at 08:00: the event of 23:00 is dropped, the one of 07:30 is delivered', async () => {
    clock.set(new Date('2026-06-01T13:00:00Z')); // 23:00 Sydney
    await queue([userId], 'account', 'at night');
    clock.set(new Date('2026-06-01T21:30:00Z')); // 07:30 Sydney
    await queue([userId], 'account', 'in the morning');
    clock.set(new Date('2026-06-01T22:00:00Z')); // 08:00 Sydney
    const ios = recorder();
    expect(await deliver({ ios })).toEqual({ claimed: 2, delivered: 1, failed: 0, dropped: 1 });
    expect(ios.sent.map((s) => s.message.title)).toEqual(['in the morning']);
    expect((await outbox()).map((r) => [r.status, r.reason])).toEqual([
      ['dropped', 'quiet_hours'],
      ['delivered', null],
    ]);
  });

  it('queued at 21:00 Sydney, reached only at 23:00: dropped too (nothing arrives during quiet hours)', async () => {
    clock.set(new Date('2026-06-01T11:00:00Z')); // 21:00 Sydney
    await queue([userId]);
    clock.set(new Date('2026-06-01T13:00:00Z')); // 23:00 Sydney
    const ios = recorder();
    expect(await deliver({ ios })).toMatchObject({ delivered: 0, dropped: 1 });
    expect((await outbox()).map((r) => r.reason)).toEqual(['quiet_hours']);
  });
});

describe('A transport failure is recorded as failed and never fails anything else', () => {
  it('a transport that throws: failed with its reason; the other device still gets its push', async () => {
    await register({ token: IOS, platform: 'ios' });
    await register({ token: ANDROID, platform: 'android' });
    await queue([userId]);
    const android = recorder();
    const throwing: Transport = {
      name: 'apns-test',
      send: async () => {
        throw new Error('connection reset');
      },
    };
    expect(await deliver({ ios: throwing, android })).toEqual({ claimed: 1, delivered: 1, failed: 1, dropped: 0 });
    expect((await outbox()).map((r) => [r.platform, r.status, r.reason])).toEqual([
      ['ios', 'failed', 'transport error: connection reset'],
      ['android', 'delivered', null],
    ]);
    expect(android.sent).toHaveLength(1);
  });

  it('a transport that never answers: failed when the send bound passes', async () => {
    await register({ token: IOS, platform: 'ios' });
    await queue([userId]);
    const silent: Transport = { name: 'silent', send: () => new Promise(() => {}) };
    expect(await deliver({ ios: silent }, { sendTimeoutMs: 50 })).toMatchObject({ failed: 1 });
    expect((await outbox())[0].reason).toBe('no answer within 50 ms');
  });

  it('the request that caused the event is answered whatever the transports do (queueing only writes a row)', async () => {
    await register({ token: IOS, platform: 'ios' });
    // The PATCH below is a request; it queues nothing, but queueing is one insert in the caller's transaction.
    const queued = await queue([userId, userId, otherId]);
    expect(queued).toBe(2); // duplicates queued once
    const before = await t.rest('GET', '/api/v1/notifications/preferences', { token: session });
    expect(before.status).toBe(200);
  });
});

describe('Delivery claims each notification once, across processes', () => {
  it('two apps on one database draining 60 notifications concurrently send each exactly once', async () => {
    await register({ token: IOS, platform: 'ios' });
    for (let i = 0; i < 60; i++) await queue([userId], 'account', `n${i}`);
    const second = await startTestApp({ shareDatabaseWith: t, clock });
    try {
      const a = recorder();
      const b = recorder();
      const [ra, rb] = await Promise.all([
        deliverPending({ prisma: t.database.prisma, clock, transports: { ios: a }, batchSize: 4 }),
        deliverPending({ prisma: second.database.prisma, clock, transports: { ios: b }, batchSize: 4 }),
      ]);
      expect(ra.claimed + rb.claimed).toBe(60);
      const titles = [...a.sent, ...b.sent].map((s) => s.message.title).sort();
      expect(titles).toEqual(Array.from({ length: 60 }, (_, i) => `n${i}`).sort());
      const rows = await outbox();
      expect(new Set(rows.map((r) => r.notification_id)).size).toBe(60);
      expect(rows).toHaveLength(60);
    } finally {
      await second.close();
    }
  });
});

describe('Web Push: the payload is encrypted and POSTed to the subscription endpoint', () => {
  const vapid = webpush.generateVAPIDKeys();
  const transport = () =>
    webPushTransport({
      vapid: { ...vapid, subject: 'mailto:ops@example.test' },
      allowedHosts: [push.host],
      timeoutMs: 5000,
      agent: push.agent(),
    });

  it('webPushPublicKey hands browsers the configured VAPID key', async () => {
    const configured = await startTestApp({
      shareDatabaseWith: t,
      clock,
      config: { vapid: { ...vapid, subject: 'mailto:ops@example.test' } },
    });
    try {
      const answer: any = await configured
        .graphql(session)
        .request('{ webPushPublicKey { ... on QueryWebPushPublicKeySuccess { data } } }');
      expect(answer.webPushPublicKey.data).toBe(vapid.publicKey);
    } finally {
      await configured.close();
    }
  });

  it('delivers to a stand-in push service; the browser’s keys decrypt the payload', async () => {
    const subscription = webSubscription(`${push.origin}/push/ok-1`);
    await register(registrationBody(subscription));
    await queue([userId], 'issue_reports', 'Report answered');
    const before = push.requests.length;
    expect(await deliver({ web: transport() })).toEqual({ claimed: 1, delivered: 1, failed: 0, dropped: 0 });
    const request = push.requests[before];
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/push/ok-1');
    expect(request.headers.host).toBe(push.host);
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(request.headers.ttl).toBe('3600');
    expect(String(request.headers.authorization)).toMatch(new RegExp(`^vapid t=[^,]+, k=${vapid.publicKey}$`));
    const payload = JSON.parse(decryptWebPush(request.body, subscription));
    expect(payload).toMatchObject({ category: 'issue_reports', title: 'Report answered', data: { id: 7 } });
    expect((await outbox())[0]).toMatchObject({ status: 'delivered', platform: 'web', transport: 'web_push' });
  });

  it('an endpoint registered with :443 is sent to its host; the VAPID audience is the origin without the port', async () => {
    await register(registrationBody(webSubscription(`${push.origin}:443/push/ok-443?x=1`)));
    await queue([userId]);
    const before = push.requests.length;
    expect(await deliver({ web: transport() })).toMatchObject({ delivered: 1 });
    const request = push.requests[before];
    expect(request.path).toBe('/push/ok-443?x=1');
    expect(request.headers.host).toBe(push.host);
    const jwt = String(request.headers.authorization).match(/^vapid t=([^,]+),/)![1];
    expect(JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).aud).toBe(push.origin);
  });

  it('410 Gone: failed, and the registration is removed so later pushes stop trying it', async () => {
    await register(registrationBody(webSubscription(`${push.origin}/push/gone-1`)));
    await queue([userId]);
    expect(await deliver({ web: transport() })).toMatchObject({ failed: 1 });
    expect((await outbox())[0].reason).toBe('push service answered 410');
    expect(await t.database.prisma.device.count({ where: { user_id: userId } })).toBe(0);
  });

  it('500: failed, and the registration stays', async () => {
    await register(registrationBody(webSubscription(`${push.origin}/push/broken-1`)));
    await queue([userId]);
    expect(await deliver({ web: transport() })).toMatchObject({ failed: 1 });
    expect(await t.database.prisma.device.count({ where: { user_id: userId } })).toBe(1);
  });

  it('an endpoint no longer on the allowed hosts is not contacted', async () => {
    await register(registrationBody(webSubscription(`${push.origin}/push/ok-2`)));
    await queue([userId]);
    const before = push.requests.length;
    const strict = webPushTransport({
      vapid: { ...vapid, subject: 'mailto:ops@example.test' },
      allowedHosts: ['fcm.googleapis.com'],
      timeoutMs: 5000,
    });
    expect(await deliver({ web: strict })).toMatchObject({ failed: 1 });
    expect(push.requests.length).toBe(before);
  });
});

describe('GraphQL notificationOutbox: the caller’s own deliveries and drops, newest first', () => {
  const query = `query($first: Int, $after: String) { notificationOutbox(first: $first, after: $after) {
    __typename ... on QueryNotificationOutboxSuccess { data { edges { cursor node { notification_id category status reason platform transport title body } } pageInfo { hasNextPage endCursor } } }
    ... on Error { message } } }`;

  it('pages through the caller’s entries only', async () => {
    await register({ token: IOS, platform: 'ios' });
    await queue([userId], 'account', 'first');
    await queue([userId, otherId], 'rate_card', 'second');
    await queue([userId], 'issue_reports', 'third');
    await deliver({ ios: recorder() });
    const page1: any = await t.graphql(session).request(query, { first: 2 });
    const data1 = page1.notificationOutbox.data;
    expect(data1.edges.map((e: any) => [e.node.title, e.node.status])).toEqual([
      ['third', 'delivered'],
      ['second', 'delivered'],
    ]);
    expect(data1.pageInfo.hasNextPage).toBe(true);
    const page2: any = await t.graphql(session).request(query, { first: 2, after: data1.pageInfo.endCursor });
    expect(page2.notificationOutbox.data.edges.map((e: any) => e.node.title)).toEqual(['first']);
    const theirs: any = await t.graphql(otherSession).request(query, { first: 10 });
    expect(theirs.notificationOutbox.data.edges.map((e: any) => [e.node.title, e.node.reason])).toEqual([
      ['second', 'no_devices'],
    ]);
  });

  it('session only: an API token is refused', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: 'o', scope: 'read' } });
    const answer: any = await t.graphql(minted.body.token).request(query, { first: 1 });
    expect(answer.notificationOutbox.__typename).toBe('ForbiddenError');
  });
});

describe('The worker survives a database outage and stops cleanly', () => {
  it('a pass against an unreachable database is logged, the next poll tries again, and stop() returns', async () => {
    // A PostgreSQL nobody listens on: every statement fails as an outage does.
    const gone = await openDatabase({
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/down',
      dataDir: ':memory:',
      migrate: false,
    });
    const passes: (DeliverySummary | { error: unknown })[] = [];
    let twoPasses: () => void = () => {};
    const waited = new Promise<void>((resolve) => {
      twoPasses = resolve;
    });
    const worker = createDeliveryWorker({
      prisma: gone.prisma,
      clock,
      transports: {},
      pollIntervalMs: 5,
      onPass: (outcome) => {
        passes.push(outcome);
        if (passes.length === 2) twoPasses();
      },
    });
    worker.start();
    await waited;
    await worker.stop();
    await gone.close();
    expect(passes.every((p) => 'error' in p)).toBe(true);
  });

  it('the app’s own worker delivers on its poll and stops', async () => {
    await queue([userId]);
    const done = new Promise<DeliverySummary>((resolve) => {
      const worker = createDeliveryWorker({
        prisma: t.database.prisma,
        clock,
        transports: {},
        pollIntervalMs: 5,
        onPass: (o) => {
          if (!('error' in o) && o.claimed > 0) void worker.stop().then(() => resolve(o));
        },
      });
      worker.start();
    });
    expect(await done).toMatchObject({ claimed: 1, dropped: 1 });
  });
});
