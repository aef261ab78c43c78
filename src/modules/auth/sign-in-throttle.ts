/**
 * Sign-in throttle (docs/auth.md): failed sign-ins are counted per account and per client address, in the database
 * so every process shares one budget. Each attempt is checked and counted by one statement (`sign_in_attempt`,
 * a row lock per key) before its password is looked at, so parallel attempts (aliases, processes) cannot all pass
 * a check none of them has counted yet.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { RateLimitedError } from '../../lib/errors.ts';
import { signInThrottled } from '../../lib/metrics.ts';

export const SIGN_IN_POLICY = {
  /** Failures in a row on one email before it is locked out (the last of them starts the lockout). */
  accountAllowance: 5,
  /** Failures from one client address (an IPv6 /64) over any emails: offices share an address behind NAT. */
  addressAllowance: 30,
  /** Lockout after the k-th failure past the allowance (k = 0, 1, ...): min(base * 2^k, max). */
  baseLockoutMs: 30_000,
  maxLockoutMs: 15 * 60_000,
  /** A counter untouched this long starts again from zero (and may be pruned). Longer than maxLockoutMs. */
  forgetAfterMs: 60 * 60_000,
} as const;

export interface SignInAttempt {
  accountKey: string;
  addressKey: string | null;
  /** The address counter's value after this attempt was counted. */
  addressCount: number | null;
}

/** Emails are matched trimmed and lower-cased; the key is a hash, so neither length nor the address is stored. */
function accountKey(normalisedEmail: string): string {
  return `account:${createHash('sha256').update(normalisedEmail).digest('hex')}`;
}

/**
 * One key per client: IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, which one subscriber usually holds
 * whole, so rotating through it buys nothing. Anything else (no trusted address) is hashed.
 */
function addressKey(address: string | null | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `address:${mapped[1]}`;
  if (isIP(address) === 4) return `address:${address}`;
  if (isIP(address) === 6) return `address:${ipv6Prefix64(address)}::/64`;
  return `address:${createHash('sha256').update(address).digest('hex')}`;
}

function ipv6Prefix64(address: string): string {
  const [head, tail = ''] = address.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':');
}

/** Checks and counts one attempt; throws RateLimitedError during a lockout (whatever the password). */
export async function beginSignIn(
  prisma: PrismaClient,
  normalisedEmail: string,
  address: string | null,
  now: Date,
): Promise<SignInAttempt> {
  const account = accountKey(normalisedEmail);
  const addr = addressKey(address);
  const keys = addr ? [account, addr] : [account];
  const allowances = addr
    ? [SIGN_IN_POLICY.accountAllowance, SIGN_IN_POLICY.addressAllowance]
    : [SIGN_IN_POLICY.accountAllowance];
  const rows = await prisma.$queryRawUnsafe<{ allowed: boolean; retry_after: number; counted: number[] | null }[]>(
    `SELECT allowed, retry_after, counted FROM sign_in_attempt($1::text[], $2::integer[], $3::timestamp(3), $4, $5, $6)`,
    keys,
    allowances,
    now,
    SIGN_IN_POLICY.baseLockoutMs,
    SIGN_IN_POLICY.maxLockoutMs,
    SIGN_IN_POLICY.forgetAfterMs,
  );
  const row = rows[0];
  if (!row.allowed) {
    signInThrottled.inc();
    throw new RateLimitedError(row.retry_after, 'Too many failed sign-in attempts. Try again later.');
  }
  return { accountKey: account, addressKey: addr, addressCount: addr ? Number(row.counted![1]) : null };
}

/**
 * A successful sign-in clears the account's counter and lockout. For the address it only takes its own attempt
 * back (successes do not count against an office's shared budget) and lifts the lockout that attempt armed, when
 * no attempt has been counted since; failures from the address stay counted, so an attacker's own valid account
 * cannot wash out a spray of wrong passwords.
 */
export async function signInSucceeded(prisma: PrismaClient, attempt: SignInAttempt): Promise<void> {
  await prisma.$executeRawUnsafe(`DELETE FROM sign_in_throttles WHERE key = $1`, attempt.accountKey);
  if (attempt.addressKey) {
    await prisma.$executeRawUnsafe(
      `UPDATE sign_in_throttles
          SET failures = greatest(failures - 1, 0),
              locked_until = CASE WHEN failures = $2 THEN NULL ELSE locked_until END
        WHERE key = $1`,
      attempt.addressKey,
      attempt.addressCount,
    );
  }
}
