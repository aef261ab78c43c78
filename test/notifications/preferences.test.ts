/**
 * Spec: Notification preferences; GET/PATCH /api/v1/notifications/preferences; Authentication 7 (session only);
 * Errors (400 unknown category, malformed time, unrecognised timezone, quiet hours without a complete window and a
 * timezone); Versioning (the category set is closed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { raceRounds } from '../../testkit/sizes.ts';

let t: TestApp;
let session: string;
let userId: number;
beforeAll(async () => {
  t = await startTestApp();
  session = (await t.login('broker.user@demo.test')).access;
  userId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});
/** Each rule starts from a user who never changed anything. */
beforeEach(async () => {
  await t.database.prisma.notificationPreference.deleteMany({ where: { user_id: userId } });
  await t.database.prisma.device.deleteMany({ where: { user_id: userId } });
});

const get = (token: string | null = session) => t.rest('GET', '/api/v1/notifications/preferences', { token });
const patch = (body: unknown, token: string | null = session) =>
  t.rest('PATCH', '/api/v1/notifications/preferences', { token, body });
const stored = () => t.database.prisma.notificationPreference.findUnique({ where: { user_id: userId } });

const DEFAULTS = {
  categories: { issue_reports: true, rate_card: true, account: true },
  quiet_hours_enabled: false,
  quiet_hours_start: null,
  quiet_hours_end: null,
  timezone: '',
  timezone_source: '',
  updated_at: null,
};

describe('GET /notifications/preferences: a user who never changed anything gets the defaults', () => {
  it('answers 200 with every category at its default_enabled and the closed category list', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(DEFAULTS);
    expect(res.body.available_categories.map((c: any) => c.key)).toEqual(['issue_reports', 'rate_card', 'account']);
    for (const c of res.body.available_categories) {
      expect(Object.keys(c)).toEqual(['key', 'label', 'description', 'default_enabled']);
      expect(res.body.categories[c.key]).toBe(c.default_enabled);
      expect(c.label).not.toBe('');
    }
    expect(await stored()).toBeNull(); // reading writes nothing
  });

  it('the category set is closed: no billing, plan, trial or marketing category', async () => {
    const keys = Object.keys((await get()).body.categories);
    for (const banned of ['billing', 'plan', 'trial', 'marketing']) expect(keys).not.toContain(banned);
  });
});

describe('Authentication 7: preferences are session only', () => {
  it('401 without credentials, GET and PATCH alike', async () => {
    expect((await get(null)).status).toBe(401);
    expect((await patch({ quiet_hours_enabled: false }, null)).status).toBe(401);
  });

  it('403 with an API token, read and read_write alike, and nothing is written', async () => {
    for (const scope of ['read', 'read_write']) {
      const minted = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: scope, scope } });
      const token = minted.body.token;
      const read = await get(token);
      expect(read.status).toBe(403);
      expect(read.body).toEqual({ error: expect.any(String) });
      expect((await patch({ categories: { account: false } }, token)).status).toBe(403);
    }
    expect(await stored()).toBeNull();
  });

  it('GraphQL: the same rule (typed ForbiddenError)', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'gql', scope: 'read_write' },
    });
    const answer: any = await t
      .graphql(minted.body.token)
      .request('{ notificationPreferences { __typename ... on Error { message } } }');
    expect(answer.notificationPreferences.__typename).toBe('ForbiddenError');
    const ok: any = await t
      .graphql(session)
      .request('{ notificationPreferences { __typename ... on NotificationPreferences { categories timezone } } }');
    expect(ok.notificationPreferences).toEqual({
      __typename: 'NotificationPreferences',
      categories: DEFAULTS.categories,
      timezone: '',
    });
  });
});

describe('PATCH categories: each toggles, the others keep their default', () => {
  it('answers 200 with the preferences after the update, and updated_at set', async () => {
    const res = await patch({ categories: { rate_card: false } });
    expect(res.status).toBe(200);
    expect(res.body.categories).toEqual({ issue_reports: true, rate_card: false, account: true });
    expect(res.body.updated_at).toEqual(expect.any(String));
    expect((await get()).body.categories.rate_card).toBe(false);
    // A later PATCH of another category keeps the first choice.
    expect((await patch({ categories: { account: false } })).body.categories).toEqual({
      issue_reports: true,
      rate_card: false,
      account: false,
    });
  });

  it('an unknown category is 400 naming it, and nothing is written (not even the known key beside it)', async () => {
    const res = await patch({ categories: { billing: true, account: false } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request.',
      errors: { categories: ['Unknown category "billing". Known: issue_reports, rate_card, account.'] },
    });
    expect(await stored()).toBeNull();
  });

  it('a thousand unknown keys answer a bounded 400', async () => {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, true]));
    const res = await patch({ categories: many });
    expect(res.status).toBe(400);
    expect(res.body.errors.categories).toHaveLength(6);
  });

  it('a value that is not a boolean, or a map that is not an object, is 400', async () => {
    const notBool = await patch({ categories: { account: 'no' } });
    expect(notBool.status).toBe(400);
    expect(notBool.body.errors).toEqual({ 'categories.account': ['Must be a valid boolean.'] });
    for (const categories of [['account'], 'account', 1, true]) {
      const res = await patch({ categories });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['categories']);
    }
  });

  it('categories null leaves every choice unchanged', async () => {
    await patch({ categories: { account: false } });
    expect((await patch({ categories: null })).body.categories.account).toBe(false);
  });
});

describe('PATCH quiet hours times: 24-hour HH:MM only', () => {
  it.each([
    '7:00',
    '07:0',
    '24:00',
    '23:60',
    '07:00:00',
    '0700',
    '',
    ' 07:00',
    '07:00 ',
    '07.00',
    '7pm',
    '٠٧:٠٠',
    '07:00\n',
  ])('refuses %j with 400 naming the field', async (time) => {
    const res = await patch({ quiet_hours_start: time });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ quiet_hours_start: ['Must be a 24-hour time HH:MM, from 00:00 to 23:59.'] });
    expect(await stored()).toBeNull();
  });

  it('refuses a non-string with 400', async () => {
    const res = await patch({ quiet_hours_end: 700 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['quiet_hours_end']);
  });

  it('accepts 00:00 and 23:59; null clears a time while quiet hours are off', async () => {
    const res = await patch({ quiet_hours_start: '00:00', quiet_hours_end: '23:59' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      quiet_hours_start: '00:00',
      quiet_hours_end: '23:59',
      quiet_hours_enabled: false,
    });
    expect((await patch({ quiet_hours_start: null })).body.quiet_hours_start).toBeNull();
  });
});

describe('PATCH timezone: any IANA zone, stored canonical; offsets and garbage refused', () => {
  it.each([
    ['UTC', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['utc', 'UTC'],
    ['america/new_york', 'America/New_York'],
    ['US/Eastern', 'America/New_York'],
    ['Australia/Lord_Howe', 'Australia/Lord_Howe'],
  ])('%s is stored as %s, chosen by the user', async (zone, expected) => {
    const res = await patch({ timezone: zone });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: expected, timezone_source: 'user' });
    expect((await stored())?.timezone).toBe(expected);
  });

  // Node 20's ICU calls these zones by their old names (Asia/Calcutta); the stored name is IANA's current one.
  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ['Asia/Katmandu', 'Asia/Kathmandu'],
    ['europe/kiev', 'Europe/Kyiv'],
    ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['America/Fort_Wayne', 'America/Indiana/Indianapolis'],
    ['Asia/Ho_Chi_Minh', 'Asia/Ho_Chi_Minh'],
  ])(
    '%s is accepted and stored as IANA’s current name %s, whatever the runtime’s ICU calls it',
    async (zone, expected) => {
      const res = await patch({ timezone: zone });
      expect(res.status).toBe(200);
      expect(res.body.timezone).toBe(expected);
      expect((await stored())?.timezone).toBe(expected);
    },
  );

  it.each([
    '+05:30',
    '-0800',
    'UTC+10',
    'GMT+5:30',
    'Mars/Olympus_Mons',
    'Australia/Sydney ',
    '../../etc/passwd',
    'x'.repeat(65),
    'Z',
    'Europe/Lon don',
  ])('refuses %j with 400 naming timezone, and nothing is written', async (zone) => {
    const res = await patch({ timezone: zone, categories: { account: false } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      timezone: ['Unrecognised time zone: send an IANA zone name such as Australia/Sydney.'],
    });
    expect(await stored()).toBeNull();
  });

  it('null leaves it unchanged; an empty string clears it and hands it back to device reports', async () => {
    await patch({ timezone: 'Europe/London' });
    expect((await patch({ timezone: null })).body).toMatchObject({
      timezone: 'Europe/London',
      timezone_source: 'user',
    });
    expect((await patch({ timezone: '' })).body).toMatchObject({ timezone: '', timezone_source: '' });
    // Handed back: the next device report sets it again.
    await t.rest('POST', '/api/v1/notifications/devices', {
      token: session,
      body: { token: 'f'.repeat(64), platform: 'ios', timezone: 'Asia/Tokyo' },
    });
    expect((await get()).body).toMatchObject({ timezone: 'Asia/Tokyo', timezone_source: 'device' });
  });

  it('an empty string is refused while quiet hours depend on it', async () => {
    await patch({ quiet_hours_enabled: true, quiet_hours_start: '22:00', quiet_hours_end: '07:00', timezone: 'UTC' });
    const res = await patch({ timezone: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      timezone: ['Cannot be cleared while quiet hours are on: they are evaluated in this zone.'],
    });
    expect((await stored())?.timezone).toBe('UTC');
    // Switching quiet hours off in the same request makes clearing fine.
    expect((await patch({ timezone: '', quiet_hours_enabled: false })).status).toBe(200);
  });
});

describe('PATCH follow_device: timezone is the device’s zone', () => {
  it('true stores the zone with timezone_source device, and a later registration keeps it current', async () => {
    const res = await patch({ timezone: 'Australia/Perth', follow_device: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: 'Australia/Perth', timezone_source: 'device' });
    await t.rest('POST', '/api/v1/notifications/devices', {
      token: session,
      body: { token: 'b'.repeat(64), platform: 'ios', timezone: 'Australia/Brisbane' },
    });
    expect((await get()).body).toMatchObject({ timezone: 'Australia/Brisbane', timezone_source: 'device' });
  });

  it('needs a non-empty timezone: 400 without one, with null, or with an empty string', async () => {
    for (const body of [
      { follow_device: true },
      { follow_device: true, timezone: null },
      { follow_device: true, timezone: '' },
    ]) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ timezone: ["Required with follow_device: true (the device's zone)."] });
    }
    expect(await stored()).toBeNull();
  });

  it('works while quiet hours are on', async () => {
    await patch({ quiet_hours_enabled: true, quiet_hours_start: '22:00', quiet_hours_end: '07:00', timezone: 'UTC' });
    const res = await patch({ timezone: 'Pacific/Auckland', follow_device: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      quiet_hours_enabled: true,
      timezone: 'Pacific/Auckland',
      timezone_source: 'device',
    });
  });

  it('false or null equals omitting it (the zone is the user’s choice)', async () => {
    expect((await patch({ timezone: 'Europe/Paris', follow_device: false })).body.timezone_source).toBe('user');
    expect((await patch({ timezone: 'Europe/Rome', follow_device: null })).body.timezone_source).toBe('user');
    expect((await patch({ follow_device: false })).status).toBe(200);
  });
});

describe('PATCH quiet hours on need a complete window and a timezone', () => {
  it('on without times or zone: 400 naming each missing part, nothing written', async () => {
    const res = await patch({ quiet_hours_enabled: true });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['quiet_hours_end', 'quiet_hours_start', 'timezone']);
    expect(await stored()).toBeNull();
  });

  it('on with a window but no zone: 400 on timezone', async () => {
    const res = await patch({ quiet_hours_enabled: true, quiet_hours_start: '22:00', quiet_hours_end: '07:00' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['timezone']);
  });

  it('on with everything in one request: 200; clearing an end while on: 400; off then clearing: 200', async () => {
    const on = await patch({
      quiet_hours_enabled: true,
      quiet_hours_start: '22:00',
      quiet_hours_end: '07:00',
      timezone: 'Australia/Sydney',
    });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ quiet_hours_enabled: true, quiet_hours_start: '22:00', quiet_hours_end: '07:00' });
    const cleared = await patch({ quiet_hours_end: null });
    expect(cleared.status).toBe(400);
    expect(Object.keys(cleared.body.errors)).toEqual(['quiet_hours_end']);
    expect((await patch({ quiet_hours_enabled: false, quiet_hours_end: null })).status).toBe(200);
  });

  it('a zone reported by a device completes the requirement', async () => {
    await t.rest('POST', '/api/v1/notifications/devices', {
      token: session,
      body: { token: 'c'.repeat(64), platform: 'ios', timezone: 'Europe/London' },
    });
    const res = await patch({ quiet_hours_enabled: true, quiet_hours_start: '23:00', quiet_hours_end: '06:00' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: 'Europe/London', timezone_source: 'device' });
  });
});

describe('GraphQL updateNotificationPreferences: the same service and rules', () => {
  it('answers typed ValidationError naming the field, and the preferences on success', async () => {
    const mutation = `mutation($input: UpdateNotificationPreferencesInput!) { updateNotificationPreferences(input: $input) {
      __typename ... on NotificationPreferences { categories timezone timezone_source }
      ... on ValidationError { errors { field messages } } } }`;
    const bad: any = await t.graphql(session).request(mutation, { input: { categories: { marketing: true } } });
    expect(bad.updateNotificationPreferences.__typename).toBe('ValidationError');
    expect(bad.updateNotificationPreferences.errors[0].field).toBe('categories');
    const ok: any = await t.graphql(session).request(mutation, { input: { timezone: 'Etc/UTC' } });
    expect(ok.updateNotificationPreferences).toMatchObject({ timezone: 'UTC', timezone_source: 'user' });
  });
});

describe('Concurrent changes keep the rules (PostgreSQL meets the real races)', () => {
  it('switching quiet hours on while another request clears the zone never leaves quiet hours on without a zone', async () => {
    for (let round = 0; round < raceRounds(15); round++) {
      await patch({
        quiet_hours_enabled: false,
        quiet_hours_start: '22:00',
        quiet_hours_end: '07:00',
        timezone: 'UTC',
      });
      const [on, clear] = await Promise.all([patch({ quiet_hours_enabled: true }), patch({ timezone: '' })]);
      expect([on.status, clear.status].sort()).toEqual([200, 400]); // whichever came second was refused
      const row = await stored();
      expect(row?.quiet_hours_enabled && row.timezone === '').toBe(false);
    }
  });

  it('a device report racing the user’s choice never overwrites it', async () => {
    for (let round = 0; round < raceRounds(15); round++) {
      await t.database.prisma.notificationPreference.deleteMany({ where: { user_id: userId } });
      await Promise.all([
        patch({ timezone: 'Europe/Paris' }),
        t.rest('POST', '/api/v1/notifications/devices', {
          token: session,
          body: { token: 'd'.repeat(64), platform: 'ios', timezone: 'Asia/Tokyo' },
        }),
      ]);
      expect(await stored()).toMatchObject({ timezone: 'Europe/Paris', timezone_source: 'user' });
    }
  });
});

describe("timezone_source: the spec's empty source is '' in REST and none in GraphQL (an enum name cannot be empty)", () => {
  const QUERY = '{ notificationPreferences { ... on NotificationPreferences { timezone timezone_source } } }';

  it("no zone yet: REST '' (GET and PATCH alike), GraphQL none", async () => {
    expect((await get()).body.timezone_source).toBe('');
    expect((await patch({ quiet_hours_enabled: false })).body.timezone_source).toBe('');
    const data = await t.graphql(session).request<any>(QUERY);
    expect(data.notificationPreferences).toEqual({ timezone: '', timezone_source: 'none' });
  });

  it('a chosen zone: user on both surfaces; cleared again: back to empty', async () => {
    expect((await patch({ timezone: 'Australia/Perth' })).body.timezone_source).toBe('user');
    expect((await t.graphql(session).request<any>(QUERY)).notificationPreferences.timezone_source).toBe('user');
    expect((await patch({ timezone: '' })).body.timezone_source).toBe('');
  });
});
