import { builder } from '../../graphql/builder.ts';
import { ApiTokenOriginEnum, ApiTokenScopeEnum, ServiceEnvironmentEnum } from '../../graphql/enums.ts';
import type { ApiTokenMetadata, TokenPair } from './service.ts';

export const TokenPairRef = builder.objectRef<TokenPair>('TokenPair').implement({
  description: 'An access token (JWT) and the refresh token that replaces the one sent',
  fields: (t) => ({
    access: t.exposeString('access', {
      description:
        'The access token: send it as Authorization: Bearer; expires after ACCESS_TOKEN_TTL_SECONDS (15 min by default)',
    }),
    refresh: t.exposeString('refresh', {
      description: 'The refresh token: spend it once with refresh for the next pair; the one sent is now spent',
    }),
  }),
});

export const MessageRef = builder.objectRef<{ message: string }>('Message').implement({
  description: 'A sentence to show; the same whatever the account (it never tells whether an email is known)',
  fields: (t) => ({ message: t.exposeString('message', { description: 'The sentence' }) }),
});

export const OkRef = builder.objectRef<{ ok: boolean }>('Ok').implement({
  description: 'The request was carried out; nothing more to answer',
  fields: (t) => ({ ok: t.exposeBoolean('ok', { description: 'Always true' }) }),
});

export const ApiTokenRef = builder.objectRef<ApiTokenMetadata>('ApiToken').implement({
  description: 'API token metadata; never carries the secret',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The token's id (revokeApiToken takes it)" }),
    name: t.exposeString('name', { description: 'Its name, chosen by its user' }),
    token_id: t.exposeString('token_id', { description: 'Public identifier, safe to log' }),
    last_four: t.exposeString('last_four', { description: "The secret's last four characters, to recognise it" }),
    scope: t.expose('scope', {
      type: ApiTokenScopeEnum,
      description: 'read: reads and the five computations; read_write: also changes',
    }),
    environment: t.expose('environment', {
      type: ServiceEnvironmentEnum,
      description: 'Where it was issued; it works only there',
    }),
    origin: t.expose('origin', { type: ApiTokenOriginEnum, description: 'How it was created; read-only' }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When it was minted' }),
    expires_at: t.expose('expires_at', {
      type: 'DateTime',
      description: 'When it stops working: every token expires (by default 90 days after it was minted)',
    }),
    last_used_at: t.expose('last_used_at', {
      type: 'DateTime',
      nullable: true,
      description: 'Its last use; null: never used',
    }),
    revoked_at: t.expose('revoked_at', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was revoked; null: still valid (unless expired)',
    }),
  }),
});

export const CreatedApiTokenRef = builder
  .objectRef<{ token: ApiTokenMetadata; secret: string }>('CreatedApiToken')
  .implement({
    description: 'A new API token: its metadata and, this once, its secret',
    fields: (t) => ({
      token: t.field({ type: ApiTokenRef, description: "The token's metadata", resolve: (r) => r.token }),
      secret: t.exposeString('secret', { description: 'The service_sk_ secret: shown this once, never again' }),
    }),
  });
