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

/** What anyone who may see a financier's results sees of it: its id and name (the spec's picker financier). */
export interface FinancierProfile {
  id: number;
  name: string;
}

export const FinancierProfileRef = builder.objectRef<FinancierProfile>('FinancierProfile').implement({
  description:
    "A financier as other organisations see it on result rows: id and name only. The full Organisation is only for the caller's own (organisation(id))",
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
  }),
});
