import type { RateCardVersion } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { VersionResourceEnum } from '../../graphql/enums.ts';
import { versionHistoryOrganisation } from './service.ts';

builder.queryField('rateCardVersions', (t) =>
  t.prismaConnection({
    type: 'RateCardVersion',
    cursor: 'id',
    description:
      "The caller's organisation's restore points, newest first (needs view_rate_card_version; another organisation answers NotFoundError)",
    authScopes: { $all: { signedIn: true, permission: 'view_rate_card_version' } },
    args: {
      organisationId: t.arg.int({
        description: "The caller's own organisation (the default); any other answers NotFoundError",
      }),
      resource: t.arg({ type: VersionResourceEnum, description: 'Only this series (default: both)' }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (query, _root, args, ctx) => {
      const organisationId = versionHistoryOrganisation(ctx.client, callerOf(ctx), args.organisationId);
      // The payload (a whole card) is never shown: not even read.
      const versions = ctx.prisma.rateCardVersion.findMany({
        ...query,
        where: { organisation_id: organisationId, ...(args.resource ? { resource: args.resource } : {}) },
        orderBy: { id: 'desc' },
        omit: { payload: true },
      });
      return versions as unknown as Promise<RateCardVersion[]>;
    },
  }),
);
