import { builder } from '../../graphql/builder.ts';
import { NotConfiguredError, NotFoundError, UpstreamUnavailableError, ValidationError } from '../../lib/errors.ts';
import { ABN_BUSINESS_NAMES_MAX } from './abn.ts';
import { lookupAbn, type AbnDetails } from './service.ts';

const AbnDetailsRef = builder.objectRef<AbnDetails>('AbnDetails').implement({
  description:
    'A business as the Australian Business Register (ABN Lookup) records it, with the ages the calculator takes',
  fields: (t) => ({
    abn: t.exposeString('abn', { description: '11 digits, no spaces' }),
    entity_name: t.exposeString('entity_name', { description: 'The legal name of the business' }),
    entity_type: t.exposeString('entity_type', { nullable: true, description: 'e.g. "Australian Private Company"' }),
    abn_status: t.exposeString('abn_status', { description: 'The register\'s word: "Active" or "Cancelled"' }),
    abn_status_effective_from: t.exposeString('abn_status_effective_from', {
      description: 'YYYY-MM-DD: when the current status took effect',
    }),
    business_names: t.exposeStringList('business_names', {
      description: `Its registered business and trading names (the first ${ABN_BUSINESS_NAMES_MAX})`,
      extensions: { listSize: ABN_BUSINESS_NAMES_MAX },
    }),
    state: t.exposeString('state', {
      nullable: true,
      description: 'State or territory of its main business address, e.g. NSW; null when the register has none',
    }),
    postcode: t.exposeString('postcode', {
      nullable: true,
      description: 'Postcode of its main business address; null when the register has none',
    }),
    abn_registered_from: t.exposeString('abn_registered_from', {
      nullable: true,
      description:
        'YYYY-MM-DD: when the ABN became active (the status effective date of an active ABN); null when not active',
    }),
    gst_registered_from: t.exposeString('gst_registered_from', {
      nullable: true,
      description: 'YYYY-MM-DD; null when not registered for GST',
    }),
    abn_age: t.exposeInt('abn_age', {
      nullable: true,
      description: "Whole months since abn_registered_from, in the service's zone; null when not active",
    }),
    gst_age: t.exposeInt('gst_age', {
      nullable: true,
      description: "Whole months since gst_registered_from, in the service's zone; null when not registered for GST",
    }),
  }),
});

builder.queryField('abnLookup', (t) =>
  t.field({
    type: AbnDetailsRef,
    description:
      'Looks an ABN up on the Australian Business Register. A computation: any signed-in caller, read API tokens included',
    authScopes: { signedIn: true },
    args: { abn: t.arg.string({ required: true, description: '11 digits; spaces are ignored' }) },
    errors: {
      types: [ValidationError, NotFoundError, UpstreamUnavailableError, NotConfiguredError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => lookupAbn(ctx, args.abn),
  }),
);
