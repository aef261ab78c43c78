import { builder } from '../../graphql/builder.ts';

export const OrganisationRef = builder.prismaObject('Organisation', {
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.exposeString('type', { description: 'f financier, b broker, u user' }),
    abn: t.exposeString('abn', { nullable: true }),
    is_bid_broker: t.exposeBoolean('is_bid_broker'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});
