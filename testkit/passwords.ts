/**
 * Password hashes for test users. Sign-in verifies a hash at the cost written in it, so a test user's hash need not
 * cost what the service's own new hashes do (bcrypt cost 10, pinned by test/auth/passwords.test.ts): at bcrypt's
 * lowest cost each of the suite's sign-ins checks its password in about a millisecond instead of tens. The path is the
 * service's own: the same verify, on a hash of the same format.
 */
import { hashPassword } from '../src/modules/auth/passwords.ts';

/** bcrypt's lowest cost. */
const TEST_COST = 4;

export function testPasswordHash(plain: string): Promise<string> {
  return hashPassword(plain, TEST_COST);
}
