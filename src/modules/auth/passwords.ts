import bcrypt from 'bcryptjs';

/** bcrypt (pure JS) with cost 10: about 50 ms a hash here, slow enough for stolen hashes, fast enough to sign in. */
const COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}

/** Compared against when the email is unknown, so a miss costs the same time as a wrong password. */
export const DUMMY_PASSWORD_HASH = bcrypt.hashSync('not-a-real-password', COST);
