/** Push configuration (docs/notifications.md): each provider's settings come together or not at all. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEB_PUSH_ENDPOINT_HOSTS, loadConfig } from '../../src/lib/config.ts';

const load = (env: Record<string, string>) =>
  loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env }, { dataDir: ':memory:' });

describe('push configuration: unset means the recording transport', () => {
  it('defaults: no VAPID, APNs or FCM; the browsers’ push services; a 2 s poll', () => {
    const config = load({});
    expect(config).toMatchObject({
      vapid: null,
      apns: null,
      fcm: null,
      notificationPollIntervalMs: 2000,
      pushTimeoutMs: 10_000,
    });
    expect(config.webPushEndpointHosts).toEqual(DEFAULT_WEB_PUSH_ENDPOINT_HOSTS);
  });
});

describe('push configuration: a partial or malformed setting stops the start', () => {
  const keys = webpush.generateVAPIDKeys();

  it('VAPID: all three or none; keys of the right size; a mailto: or https: subject', () => {
    expect(
      load({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:a@b.test' })
        .vapid,
    ).toEqual({
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      subject: 'mailto:a@b.test',
    });
    expect(() => load({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(ConfigError);
    expect(() =>
      load({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:a@b.test' }),
    ).toThrow(ConfigError);
    expect(() =>
      load({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'ops' }),
    ).toThrow(ConfigError);
  });

  it('WEB_PUSH_ENDPOINT_HOSTS: host names only, never an address or localhost', () => {
    expect(load({ WEB_PUSH_ENDPOINT_HOSTS: ' Push.Example.test , fcm.googleapis.com' }).webPushEndpointHosts).toEqual([
      'push.example.test',
      'fcm.googleapis.com',
    ]);
    for (const host of ['127.0.0.1', '2130706433', '[::1]', '::1', 'localhost', 'push.localhost', "a'b.test", 'a..b'])
      expect(() => load({ WEB_PUSH_ENDPOINT_HOSTS: `fcm.googleapis.com,${host}` })).toThrow(ConfigError);
  });

  it('APNs: all four or none; an unreadable key file is refused', () => {
    expect(() => load({ APNS_KEY_ID: 'K' })).toThrow(ConfigError);
    expect(() =>
      load({ APNS_KEY_FILE: '/nonexistent.p8', APNS_KEY_ID: 'K', APNS_TEAM_ID: 'T', APNS_TOPIC: 'a.b' }),
    ).toThrow(ConfigError);
  });

  it('FCM: the service account file must hold project_id, client_email and private_key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fcm-'));
    const file = path.join(dir, 'sa.json');
    writeFileSync(file, JSON.stringify({ project_id: 'p' }));
    expect(() => load({ FCM_SERVICE_ACCOUNT_FILE: file })).toThrow(ConfigError);
    writeFileSync(file, JSON.stringify({ project_id: 'p', client_email: 'e@p.test', private_key: 'PEM' }));
    expect(load({ FCM_SERVICE_ACCOUNT_FILE: file }).fcm).toMatchObject({
      projectId: 'p',
      tokenUrl: 'https://oauth2.googleapis.com/token',
    });
    expect(() => load({ FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json') })).toThrow(ConfigError);
  });

  it('a poll interval below 1 ms is refused', () => {
    expect(() => load({ NOTIFICATION_POLL_INTERVAL_MS: '0' })).toThrow(ConfigError);
  });
});
