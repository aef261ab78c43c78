/**
 * Every mutation runs in a write slot of its caller's organisation (src/lib/write-slots.ts). Applied once to the
 * schema's Mutation fields, so /graphql, the REST table and the MCP tools, which all execute this schema's
 * resolvers, meet the same bound. Anonymous mutations (sign-in, refresh, sign-up) have throttles of their own.
 */
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { Context } from './context.ts';

/** The lane a caller's writes queue in: its organisation's, or its own when it has none. */
function writeLaneOf(caller: Context['caller']): string | null {
  if (!caller) return null;
  return caller.organisation ? `organisation:${caller.organisation.id}` : `user:${caller.userId}`;
}

export function boundWrites(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (root, args, ctx: Context, info) => {
      const lane = writeLaneOf(ctx.caller);
      return lane ? ctx.writeSlots.run(lane, () => resolve(root, args, ctx, info)) : resolve(root, args, ctx, info);
    };
  }
  return schema;
}
