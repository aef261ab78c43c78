import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { AlreadyInvitedError, EmailAlreadyUserError, InvitationInvalidError, SeatLimitReachedError } from './errors.ts';
import { acceptInvitation, inviteUser, withdrawInvitation } from './invitations.ts';
import { CreatedInvitationRef, WithdrawnInvitationRef } from './team.types.ts';
import { UserRef } from './users.types.ts';

const ADMIN_WRITE = { $all: { write: true, admin: true } } as const;

builder.mutationField('inviteUser', (t) =>
  t.field({
    type: CreatedInvitationRef,
    description:
      'Invite an email to your organisation (administrators). The invite holds a seat until accepted or withdrawn; inviting the email of an expired invite renews it in the same seat; the answer carries its single-use secret once',
    authScopes: ADMIN_WRITE,
    args: {
      email: t.arg.string({ required: true, description: 'The email to invite' }),
      firstName: t.arg.string({ description: "The invitee's first name (optional)" }),
      lastName: t.arg.string({ description: "The invitee's last name (optional)" }),
      groupNames: t.arg.stringList({ description: 'Existing groups the user joins on acceptance (at most 20)' }),
    },
    errors: {
      types: [ForbiddenError, ValidationError, SeatLimitReachedError, EmailAlreadyUserError, AlreadyInvitedError],
      directResult: true,
    },
    resolve: (_root, args, ctx) =>
      inviteUser(ctx, callerOf(ctx), {
        email: args.email,
        first_name: args.firstName,
        last_name: args.lastName,
        group_names: args.groupNames,
      }),
  }),
);

builder.mutationField('withdrawInvitation', (t) =>
  t.field({
    type: WithdrawnInvitationRef,
    description: 'Withdraw a pending invitation of your organisation: its token stops working and its seat is freed',
    authScopes: ADMIN_WRITE,
    args: { id: t.arg.int({ required: true, description: "The invitation's id" }) },
    errors: { types: [ForbiddenError, NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => withdrawInvitation(ctx, callerOf(ctx), args.id),
  }),
);

builder.mutationField('acceptInvitation', (t) =>
  t.prismaField({
    type: UserRef,
    description:
      'Accept an invitation: creates your user in the inviting organisation. No sign-in needed (the token is the credential); sign in afterwards with the email and this password',
    args: {
      token: t.arg.string({ required: true, description: 'The inv_ secret the administrator handed over' }),
      password: t.arg.string({ required: true, description: "The new user's password (docs/auth.md has the rules)" }),
      firstName: t.arg.string({ description: "First name; absent: the invitation's" }),
      lastName: t.arg.string({ description: "Last name; absent: the invitation's" }),
    },
    errors: { types: [InvitationInvalidError, ValidationError, EmailAlreadyUserError], directResult: true },
    resolve: (_query, _root, args, ctx) =>
      acceptInvitation(ctx, {
        token: args.token,
        password: args.password,
        first_name: args.firstName,
        last_name: args.lastName,
      }),
  }),
);
