import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ApiTokenRef } from './auth.types.ts';
import { API_TOKENS_ENDED_LISTED, API_TOKENS_LISTED_MAX, listApiTokens } from './service.ts';

builder.queryField('apiTokens', (t) =>
  t.field({
    type: [ApiTokenRef],
    description: "The caller's API tokens (metadata only)",
    authScopes: { signedIn: true },
    errors: {
      dataField: {
        description: `The caller's tokens, oldest first: every live one and the ${API_TOKENS_ENDED_LISTED} most recently revoked or expired`,
        extensions: { listSize: API_TOKENS_LISTED_MAX },
      },
    },
    resolve: (_root, _args, ctx) => listApiTokens(ctx, callerOf(ctx)),
  }),
);
