import { hash, hashSync, verify } from '@node-rs/bcrypt';

/**
 * bcrypt, cost 10: slow enough for stolen hashes, fast enough to sign in. @node-rs/bcrypt
 * hashes on libuv's thread pool, so a burst of sign-ins does not stall the event loop; it reads the `$2a$`/`$2b$`
 * hashes bcryptjs wrote before.
 */
const COST = 10;

/**
 * @node-rs/bcrypt 1.x labels its hashes `$2y$`; `$2y$` and `$2b$` name the same corrected algorithm, so the label is
 * written as `$2b$`, which every bcrypt implementation (bcryptjs included) reads.
 */
const asTwoB = (hashed: string): string => hashed.replace(/^\$2y\$/, '$2b$');

/** `cost` is the service's own unless a caller of throwaway accounts asks for less (testkit/passwords.ts). */
export async function hashPassword(plain: string, cost = COST): Promise<string> {
  return asTwoB(await hash(plain, cost));
}

export function verifyPassword(plain: string, hashed: string): Promise<boolean> {
  return verify(plain, hashed);
}

/** Compared against when the email is unknown, so a miss costs the same time as a wrong password (made once, at load). */
export const DUMMY_PASSWORD_HASH = asTwoB(hashSync('not-a-real-password', COST));
