import { builder } from '../../graphql/builder.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { LastAdminError, SeatLimitReachedError, type Seats } from './errors.ts';
import { USER_GROUPS_MAX } from '../../lib/permissions.ts';

builder.prismaObject('Permission', {
  description: 'Something a group lets its members do',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The permission's id" }),
    codename: t.exposeString('codename', {
      description:
        'e.g. change_equipment, view_rate_card_version, restore_rate_card_version, change_approval, change_rate_card',
    }),
  }),
});

builder.prismaObject('Group', {
  name: 'UserGroup',
  description: 'A group of users; members hold its permissions (administrators hold all)',
  fields: (t) => ({
    name: t.exposeString('name', { description: "The group's name" }),
    permissions: t.relation('permissions', { description: 'What its members may do' }),
  }),
});

export const UserRef = builder.prismaObject('User', {
  description: 'A user: the caller, or (administrators) a user of their organisation',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The user's id" }),
    email: t.exposeString('email', { description: 'Their sign-in email' }),
    first_name: t.exposeString('first_name', { description: 'Given name, as shown to the team' }),
    last_name: t.exposeString('last_name', { description: 'Family name, as shown to the team' }),
    organisation_id: t.exposeInt('organisation_id', {
      nullable: true,
      description: 'Their organisation; null: none',
    }),
    is_admin: t.exposeBoolean('is_admin', { description: 'An administrator of their organisation' }),
    is_active: t.exposeBoolean('is_active', {
      description: 'false: deactivated (cannot sign in; holds no seat)',
    }),
    is_email_verified: t.exposeBoolean('is_email_verified', { description: 'They confirmed their email' }),
    created: t.expose('created', { type: 'DateTime', description: 'When the user was created' }),
    groups: t.relation('groups', {
      description: 'Their groups, with permissions',
      extensions: { listSize: USER_GROUPS_MAX },
    }),
    organisation: t.relation('organisation', { nullable: true, description: 'Their organisation; null: none' }),
  }),
});

// ---------- errors ----------

export const SeatsRef = builder.objectRef<Seats>('Seats').implement({
  description: 'used: active users plus invites not yet accepted; limit: null = unlimited. used may exceed limit',
  fields: (t) => ({
    used: t.exposeInt('used', {
      description: 'Active users plus invites not yet accepted (deactivated users are not counted)',
    }),
    limit: t.exposeInt('limit', { nullable: true, description: "The plan's user limit; null = unlimited" }),
  }),
});

builder.objectType(SeatLimitReachedError, {
  name: 'SeatLimitReachedError',
  description: "Every seat of the organisation's plan is taken; nothing was changed (REST 409 seat_limit_reached)",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    seats: t.field({ type: SeatsRef, description: 'The seats as they stand', resolve: (e) => e.seats }),
  }),
});

builder.objectType(LastAdminError, {
  name: 'LastAdminError',
  description: 'The edit would leave the organisation without an active administrator; nothing was changed',
  interfaces: [ErrorInterface],
});
