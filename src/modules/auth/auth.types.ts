import { builder } from '../../graphql/builder.ts';
import type { ApiTokenMetadata, TokenPair } from './service.ts';

export const TokenPairRef = builder.objectRef<TokenPair>('TokenPair').implement({
  description: 'An access token (JWT) and the refresh token that replaces the one sent',
  fields: (t) => ({ access: t.exposeString('access'), refresh: t.exposeString('refresh') }),
});

export const MessageRef = builder.objectRef<{ message: string }>('Message').implement({
  fields: (t) => ({ message: t.exposeString('message') }),
});

export const OkRef = builder.objectRef<{ ok: boolean }>('Ok').implement({
  fields: (t) => ({ ok: t.exposeBoolean('ok') }),
});

export const ApiTokenRef = builder.objectRef<ApiTokenMetadata>('ApiToken').implement({
  description: 'API token metadata; never carries the secret',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    token_id: t.exposeString('token_id', { description: 'Public identifier, safe to log' }),
    last_four: t.exposeString('last_four'),
    scope: t.exposeString('scope'),
    environment: t.exposeString('environment'),
    origin: t.exposeString('origin'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    expires_at: t.expose('expires_at', { type: 'DateTime', nullable: true }),
    last_used_at: t.expose('last_used_at', { type: 'DateTime', nullable: true }),
    revoked_at: t.expose('revoked_at', { type: 'DateTime', nullable: true }),
  }),
});

export const CreatedApiTokenRef = builder
  .objectRef<{ token: ApiTokenMetadata; secret: string }>('CreatedApiToken')
  .implement({
    fields: (t) => ({
      token: t.field({ type: ApiTokenRef, resolve: (r) => r.token }),
      secret: t.exposeString('secret', { description: 'The service_sk_ secret: shown this once, never again' }),
    }),
  });
