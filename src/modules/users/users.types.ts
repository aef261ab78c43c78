import { builder } from '../../lib/builder.ts';

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
