import { builder } from '../../graphql/builder.ts';
import { OrganisationTypeEnum } from '../../graphql/enums.ts';

export const OrganisationRef = builder.prismaObject('Organisation', {
  description: "An organisation in full: a financier, a broker or a single user's own. Only its members read it",
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The organisation's id" }),
    name: t.exposeString('name', { description: 'Its name' }),
    type: t.expose('type', { type: OrganisationTypeEnum, description: 'Financier, broker or user' }),
    abn: t.exposeString('abn', { nullable: true, description: 'Its ABN, 11 digits; null when none is recorded' }),
    is_bid_broker: t.exposeBoolean('is_bid_broker', {
      description: 'A broker bound by Best Interests Duty: only these see consumer rate cards',
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When it was created' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'Its last change' }),
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
    id: t.exposeInt('id', { description: "The financier's organisation id" }),
    name: t.exposeString('name', { description: "The financier's name" }),
  }),
});
