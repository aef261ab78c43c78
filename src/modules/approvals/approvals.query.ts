import { resolveCursorConnection } from '@pothos/plugin-relay';
import type { Approval, Prisma } from '../../generated/prisma/client.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, builder } from '../../graphql/builder.ts';
import { OWN_CURSOR_CHECK } from '../../graphql/cursors.ts';
import { ValidationError } from '../../lib/errors.ts';
import { ApprovalRef } from './approval.types.ts';
import { APPROVAL_ORDER, approvalsWhere } from './service.ts';

/** The list order backwards, for `last`/`before` pages (the relay helper turns the page round again). */
const REVERSED_ORDER: Prisma.ApprovalOrderByWithRelationInput[] = [
  { organisation_id: 'desc' },
  { priority: 'asc' },
  { id: 'desc' },
];

/** Cursors are opaque to clients: base64url of `approval:<id>`. */
const toCursor = (approval: { id: number }) => Buffer.from(`approval:${approval.id}`).toString('base64url');

/**
 * The approval id inside a cursor. Anything this list did not hand out is a ValidationError naming the argument,
 * checked here, before a query is built from it (a forged cursor never reaches the database).
 */
function cursorId(cursor: string | null | undefined, argument: 'after' | 'before'): number | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  const match = /^approval:([1-9]\d{0,8})$/.exec(
    /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '',
  );
  if (!match) throw ValidationError.of(argument, 'Not a cursor of this list: use a cursor from a previous page.');
  return Number(match[1]);
}

builder.queryField('approvals', (t) =>
  t.connection({
    type: ApprovalRef,
    description:
      "Every financier's approvals, or one financier's (organisationId), by financier, then priority (highest first), then id. Readable by any signed-in caller; pages default to 20 and are capped at 100",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError], dataField: { description: 'The page of approvals' } },
    args: { organisationId: t.arg.int({ description: 'Only this financier' }) },
    // cursorId() below answers a typed ValidationError for any cursor it did not hand out (src/graphql/cursors.ts).
    extensions: { [OWN_CURSOR_CHECK]: true },
    resolve: (_root, args, ctx) => {
      const after = cursorId(args.after, 'after');
      const before = cursorId(args.before, 'before');
      return resolveCursorConnection<Promise<Approval[]>>(
        { args, toCursor, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE },
        async ({ limit, inverted }) => {
          const from = inverted ? before : after;
          return ctx.prisma.approval.findMany({
            where: approvalsWhere(args.organisationId),
            orderBy: inverted ? REVERSED_ORDER : APPROVAL_ORDER,
            ...(from === undefined ? {} : { cursor: { id: from }, skip: 1 }),
            take: limit,
          });
        },
      );
    },
  }),
);
