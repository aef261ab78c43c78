/** Password hashing: @node-rs/bcrypt on libuv's thread pool, reading the hashes bcryptjs wrote. */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../src/modules/auth/passwords.ts';

// Made by bcryptjs 3 (cost 10) before the switch; the $2a$ one is the same hash under the prefix bcryptjs 2 wrote.
const BCRYPTJS_2B = '$2b$10$7jB0WCer0wti0z/c4a1qH.SWrqRqiURWNWN3RfJnx7iRn.Yq7j46G';
const BCRYPTJS_2A = '$2a$10$7jB0WCer0wti0z/c4a1qH.SWrqRqiURWNWN3RfJnx7iRn.Yq7j46G';
const BCRYPTJS_UNICODE = '$2b$10$UisBRoEdyKiNWPkAGCbaPOffzLXeb7PslzDgTCYysUD8yd6E7JX.i';

describe('Existing bcryptjs hashes stay valid', () => {
  it('accepts the right password for $2a$ and $2b$ hashes and refuses a wrong one', async () => {
    expect(await verifyPassword('correct horse battery staple', BCRYPTJS_2B)).toBe(true);
    expect(await verifyPassword('correct horse battery staple', BCRYPTJS_2A)).toBe(true);
    expect(await verifyPassword('pässwörd-ünïcode-🔑', BCRYPTJS_UNICODE)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', BCRYPTJS_2B)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', BCRYPTJS_2A)).toBe(false);
  });

  it('new hashes are bcrypt $2b$ cost 10 and round-trip; a malformed hash is a refusal, not a crash', async () => {
    const hash = await hashPassword('new-password-1');
    expect(hash).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/);
    expect(await verifyPassword('new-password-1', hash)).toBe(true);
    expect(await verifyPassword('new-password-1', 'not-a-hash')).toBe(false);
    expect(DUMMY_PASSWORD_HASH).toMatch(/^\$2b\$10\$/);
  });
});

describe('Hashing runs off the event loop', () => {
  it('the main thread stays mostly idle while four hashes and four comparisons run', async () => {
    const start = performance.eventLoopUtilization();
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => hashPassword(`password-${i}`)),
      ...Array.from({ length: 4 }, () => verifyPassword('wrong', DUMMY_PASSWORD_HASH)),
    ]);
    // A JavaScript bcrypt keeps the loop busy for the whole time (utilisation near 1).
    expect(performance.eventLoopUtilization(start).utilization).toBeLessThan(0.5);
  });
});
