/**
 * What a saved scenario's owner is told after a re-pricing (docs/notifications.md "Saved scenarios"): the threshold
 * they set (REST and GraphQL preferences) decides whether a move notifies; the saved financier withdrawing notifies
 * regardless; the notice is a `rate_card` notification, so the owner's categories and quiet hours apply exactly as
 * to any other (a push inside quiet hours is dropped, not delayed). The worker and delivery are driven with their
 * passes (runOnce, deliverPending) on a fixed clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deliverPending,
  type PushMessage,
  type PushTarget,
  type Transport,
} from '../../src/modules/notifications/index.ts';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';
import { savedRun as savedRunAs } from './saved-run.ts';

const NOON_SYDNEY = new Date('2026-06-01T02:00:00Z'); // 12:00 in Sydney (winter, UTC+10)
const clock = new ManualClock(NOON_SYDNEY);
let t: TestApp;
let broker: string;
let brokerId: number;

beforeAll(async () => {
  t = await startTestApp({ clock });
  broker = (await t.login('broker.admin@demo.test')).access;
  brokerId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

const runOnce = () => t.app.repricing.runOnce();
const IOS = 'cd'.repeat(32);

beforeEach(async () => {
  clock.set(NOON_SYDNEY);
  const p = t.database.prisma;
  await p.scenario.deleteMany({ where: { user_id: brokerId } });
  await p.notificationOutbox.deleteMany({ where: { user_id: brokerId } });
  await p.notification.deleteMany({ where: { user_id: brokerId } });
  await p.notificationPreference.deleteMany({ where: { user_id: brokerId } });
  await p.device.deleteMany({ where: { user_id: brokerId } });
  await runOnce(); // drains changes left by earlier tests (and the demo load)
  await p.notification.deleteMany({ where: { user_id: brokerId } });
  const registered = await t.rest('POST', '/api/v1/notifications/devices', {
    token: broker,
    body: { token: IOS, platform: 'ios' },
  });
  expect(registered.status).toBe(200);
});

const patchPreferences = (body: unknown) =>
  t.rest('PATCH', '/api/v1/notifications/preferences', { token: broker, body });

const savedRun = (path: '/calculator' | '/matrix-calculator/') => savedRunAs(t, broker, path);

const scenarioRow = (id: number) => t.database.prisma.scenario.findUniqueOrThrow({ where: { id } });
const savedCheapest = async (id: number) =>
  ((await scenarioRow(id)).summary as any).cheapest as { rate_bracket_id: number; repayment: string };

/** Raises a bracket's base rates by `points` (0: a change that moves nothing, still a new catalogue version). */
async function raiseRate(bracketId: number, points: number): Promise<void> {
  const b = await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracketId } });
  await t.database.prisma.rateBracket.update({
    where: { id: bracketId },
    data: { base_min: b.base_min + points, base_max: b.base_max + points },
  });
}

/** The bracket of the cheapest row now (moving it moves the figure the owner was last told about). */
const currentBracket = async (id: number) =>
  ((await scenarioRow(id)).current as any).cheapest.rate_bracket_id as number;

const notices = () => t.database.prisma.notification.findMany({ where: { user_id: brokerId }, orderBy: { id: 'asc' } });

/** A transport that records what it was asked to send. */
function recorder(): Transport & { sent: { target: PushTarget; message: PushMessage }[] } {
  const sent: { target: PushTarget; message: PushMessage }[] = [];
  return {
    name: 'test',
    sent,
    send: async (target, message) => {
      sent.push({ target, message });
      return { ok: true };
    },
  };
}
const deliver = (ios: Transport) => deliverPending({ prisma: t.database.prisma, clock, transports: { ios } });
const outboxReasons = async () =>
  (await t.database.prisma.notificationOutbox.findMany({ where: { user_id: brokerId }, orderBy: { id: 'asc' } })).map(
    (o) => [o.status, o.reason],
  );

describe('The threshold is set through the notification preferences, and read back', () => {
  it('REST: the body stays the contract\'s; the X-Scenario-Change-Threshold header answers it, "1.00" until set', async () => {
    const threshold = (res: { headers: Headers }) => res.headers.get('x-scenario-change-threshold');
    const first = await t.rest('GET', '/api/v1/notifications/preferences', { token: broker });
    expect(threshold(first)).toBe('1.00');
    expect(first.body).not.toHaveProperty('scenario_change_threshold');
    const set = await patchPreferences({ scenario_change_threshold: 2.5 });
    expect(set.status).toBe(200);
    expect(threshold(set)).toBe('2.50');
    expect(set.body).not.toHaveProperty('scenario_change_threshold');
    expect(threshold(await patchPreferences({ scenario_change_threshold: '0.35' }))).toBe('0.35');
    expect(threshold(await patchPreferences({ scenario_change_threshold: null }))).toBe('0.35');
    expect(threshold(await patchPreferences({ quiet_hours_enabled: false }))).toBe('0.35');
    expect(threshold(await patchPreferences({ scenario_change_threshold: 1_000_000 }))).toBe('1000000.00');
    expect(threshold(await patchPreferences({ scenario_change_threshold: 0 }))).toBe('0.00');
    expect(threshold(await t.rest('GET', '/api/v1/notifications/preferences', { token: broker }))).toBe('0.00');
  });

  it('GraphQL: updateNotificationPreferences sets it and notificationPreferences reads it', async () => {
    const gql = t.graphql(broker);
    const set = await gql.request<any>(
      `mutation { updateNotificationPreferences(input: {scenario_change_threshold: "12.40"}) {
         __typename ... on NotificationPreferences { scenario_change_threshold } } }`,
    );
    expect(set.updateNotificationPreferences).toEqual({
      __typename: 'NotificationPreferences',
      scenario_change_threshold: '12.40',
    });
    const read = await gql.request<any>(
      '{ notificationPreferences { ... on NotificationPreferences { scenario_change_threshold } } }',
    );
    expect(read.notificationPreferences.scenario_change_threshold).toBe('12.40');
  });

  it('bad values are 400 naming scenario_change_threshold, and nothing is written', async () => {
    await patchPreferences({ scenario_change_threshold: 3 });
    const cases: [unknown, string][] = [
      [-0.01, 'Ensure this value is greater than or equal to 0.'],
      [1_000_000.01, 'Ensure this value is less than or equal to 1000000.00.'],
      [1.005, 'Ensure there are no more than 2 decimal places.'],
      ['2.999', 'Ensure there are no more than 2 decimal places.'],
      ['abc', 'A valid number is required.'],
      ['1e3', 'A valid number is required.'],
      ['', 'A valid number is required.'],
      [true, 'A valid number is required.'],
      [{ amount: 1 }, 'A valid number is required.'],
    ];
    for (const [value, message] of cases) {
      const res = await patchPreferences({ scenario_change_threshold: value, quiet_hours_enabled: true });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.errors.scenario_change_threshold, JSON.stringify(value)).toEqual([
        expect.stringContaining(message),
      ]);
    }
    const read = await t.rest('GET', '/api/v1/notifications/preferences', { token: broker });
    expect(read.headers.get('x-scenario-change-threshold')).toBe('3.00');
    expect(read.body).toMatchObject({ quiet_hours_enabled: false });
    const gql = await t.graphql(broker).request<any>(
      `mutation { updateNotificationPreferences(input: {scenario_change_threshold: -1}) {
         __typename ... on ValidationError { errors { field messages } } } }`,
    );
    expect(gql.updateNotificationPreferences).toEqual({
      __typename: 'ValidationError',
      errors: [{ field: 'scenario_change_threshold', messages: ['Ensure this value is greater than or equal to 0.'] }],
    });
  });
});

describe('A move notifies when it reaches the threshold the owner set, and not below it', () => {
  it('one cent below the move: nothing; exactly the move: one rate_card notification with both figures', async () => {
    await patchPreferences({ scenario_change_threshold: 1_000_000 });
    const id = await savedRun('/calculator');
    const saved = await savedCheapest(id);
    await raiseRate(saved.rate_bracket_id, 2);
    await runOnce();
    const now = ((await scenarioRow(id)).current as any).cheapest as { repayment: string; organisation_name: string };
    const moveCents = Math.abs(Math.round(Number(now.repayment) * 100) - Math.round(Number(saved.repayment) * 100));
    expect(moveCents).toBeGreaterThan(0);
    expect(await notices()).toHaveLength(0);

    // The same move against a threshold one cent above it: still nothing.
    await patchPreferences({ scenario_change_threshold: ((moveCents + 1) / 100).toFixed(2) });
    await raiseRate(saved.rate_bracket_id, 0);
    expect((await runOnce()).repriced).toBe(1);
    expect(await notices()).toHaveLength(0);

    // A threshold equal to the move: told, once, with the saved and the new figure and the financier.
    await patchPreferences({ scenario_change_threshold: (moveCents / 100).toFixed(2) });
    await raiseRate(saved.rate_bracket_id, 0);
    await runOnce();
    const told = await notices();
    expect(told).toHaveLength(1);
    expect(told[0].category).toBe('rate_card');
    expect(told[0].body).toContain(`$${now.repayment} with ${now.organisation_name}`);
    expect(told[0].body).toContain(`(was $${saved.repayment})`);
    expect(told[0].data).toMatchObject({ old_repayment: saved.repayment, new_repayment: now.repayment });
  });
});

describe('The saved financier no longer approving notifies whatever the threshold', () => {
  it("the saved row's approval links removed: one notification although the threshold is the maximum", async () => {
    await patchPreferences({ scenario_change_threshold: 1_000_000 });
    const id = await savedRun('/matrix-calculator/');
    const saved = await savedCheapest(id);
    const links = await t.database.prisma.approvalRateBracket.findMany({
      where: { rate_bracket_id: saved.rate_bracket_id },
    });
    await t.database.prisma.approvalRateBracket.deleteMany({ where: { rate_bracket_id: saved.rate_bracket_id } });
    try {
      await runOnce();
      const current = (await scenarioRow(id)).current as any;
      expect(current.saved_cheapest_stands).toBe(false);
      const told = await notices();
      expect(told).toHaveLength(1);
      expect(told[0].body).toContain('no longer offers the saved rate');
    } finally {
      await t.database.prisma.approvalRateBracket.createMany({ data: links });
    }
  });
});

describe('Categories: an owner who switched off rate_card is not notified, but the figures still update', () => {
  it('rate_card off: the notice is dropped (category_disabled) and nothing is pushed; on: it is pushed', async () => {
    await patchPreferences({ scenario_change_threshold: 0, categories: { rate_card: false } });
    const id = await savedRun('/calculator');
    const bracket = (await savedCheapest(id)).rate_bracket_id;
    await raiseRate(bracket, 2);
    await runOnce();
    expect((await scenarioRow(id)).repriced_at).toEqual(NOON_SYDNEY);
    const off = recorder();
    await deliver(off);
    expect(off.sent).toHaveLength(0);
    expect(await outboxReasons()).toEqual([['dropped', 'category_disabled']]);

    // The same with the category on is pushed: the category, not something else, stopped it.
    await patchPreferences({ categories: { rate_card: true } });
    await raiseRate(await currentBracket(id), 2);
    await runOnce();
    const on = recorder();
    await deliver(on);
    expect(on.sent.map((s) => s.message.category)).toEqual(['rate_card']);
  });
});

describe('Quiet hours: a notice of a re-pricing inside them is dropped, not delivered after they end', () => {
  it('re-priced at 12:30 in a 12:00-14:00 window, delivered at 15:00: dropped (quiet_hours), never pushed', async () => {
    const set = await patchPreferences({
      scenario_change_threshold: 0,
      quiet_hours_enabled: true,
      quiet_hours_start: '12:00',
      quiet_hours_end: '14:00',
      timezone: 'Australia/Sydney',
    });
    expect(set.status).toBe(200);
    const id = await savedRun('/calculator');
    const bracket = (await savedCheapest(id)).rate_bracket_id;
    clock.set(new Date('2026-06-01T02:30:00Z')); // 12:30 in Sydney
    await raiseRate(bracket, 2);
    await runOnce();
    expect(await notices()).toHaveLength(1);

    clock.set(new Date('2026-06-01T05:00:00Z')); // 15:00 in Sydney: quiet hours are over
    const ios = recorder();
    await deliver(ios);
    expect(ios.sent).toHaveLength(0);
    expect(await outboxReasons()).toEqual([['dropped', 'quiet_hours']]);
    await deliver(ios);
    expect(ios.sent).toHaveLength(0);

    // Re-priced outside the window, the notice is pushed.
    await raiseRate(await currentBracket(id), 2);
    await runOnce();
    await deliver(ios);
    expect(ios.sent.map((s) => s.message.category)).toEqual(['rate_card']);
  });
});
