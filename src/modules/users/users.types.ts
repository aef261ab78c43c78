import { builder } from '../../graphql/builder.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { LastAdminError, SeatLimitReachedError, type Seats } from './errors.ts';

export const PermissionRef = builder.prismaObject('Permission', {
  fields: (t) => ({ id: t.exposeInt('id'), codename: t.exposeString('codename') }),
});

export const UserGroupRef = builder.prismaObject('Group', {
  name: 'UserGroup',
  fields: (t) => ({ name: t.exposeString('name'), permissions: t.relation('permissions') }),
});

export const UserRef = builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeInt('id'),
    email: t.exposeString('email'),
    first_name: t.exposeString('first_name'),
    last_name: t.exposeString('last_name'),
    organisation_id: t.exposeInt('organisation_id', { nullable: true }),
    is_admin: t.exposeBoolean('is_admin'),
    is_active: t.exposeBoolean('is_active'),
    is_email_verified: t.exposeBoolean('is_email_verified'),
    created: t.expose('created', { type: 'DateTime' }),
    groups: t.relation('groups'),
    organisation: t.relation('organisation', { nullable: true }),
  }),
});

// ---------- errors ----------

export const SeatsRef = builder.objectRef<Seats>('Seats').implement({
  description: 'used: active users plus invites not yet accepted; limit: null = unlimited. used may exceed limit',
  fields: (t) => ({ used: t.exposeInt('used'), limit: t.exposeInt('limit', { nullable: true }) }),
});

builder.objectType(SeatLimitReachedError, {
  name: 'SeatLimitReachedError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ seats: t.field({ type: SeatsRef, resolve: (e) => e.seats }) }),
});

builder.objectType(LastAdminError, {
  name: 'LastAdminError',
  description: 'The edit would leave the organisation without an active administrator; nothing was changed',
  interfaces: [ErrorInterface],
});
