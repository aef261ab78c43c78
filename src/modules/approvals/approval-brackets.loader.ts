/**
 * `rate_brackets` on Approval: one dataloader per request, so the brackets of every approval resolved in one tick
 * (300 result rows' approvals) cost two queries together, never one per approval.
 */
import DataLoader from 'dataloader';
import type { RateBracket } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';
import { bookOf } from '../../lib/policy.ts';
import { rateBracketsOf } from './service.ts';

const KEY = 'approvals:rate_brackets';

export function approvalBracketsLoader(ctx: Context): DataLoader<number, RateBracket[]> {
  let loader = ctx.cache.get(KEY) as DataLoader<number, RateBracket[]> | undefined;
  if (!loader) {
    // No caller reads nothing: the field sits behind the approval reads' sign-in, this is the belt to those braces.
    const book = ctx.caller ? bookOf(ctx.caller) : new Set<number>();
    loader = new DataLoader<number, RateBracket[]>((ids) => rateBracketsOf(ctx.prisma, ids, book));
    ctx.cache.set(KEY, loader);
  }
  return loader;
}
