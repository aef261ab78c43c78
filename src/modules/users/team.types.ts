import { builder } from '../../graphql/builder.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import type { Invitation } from '../../generated/prisma/client.ts';
import { AlreadyInvitedError, EmailAlreadyUserError, InvitationInvalidError } from './errors.ts';
import { USER_GROUPS_MAX } from '../../lib/permissions.ts';

export const InvitationRef = builder.prismaObject('Invitation', {
  description:
    'A pending invite: holds a seat until accepted or withdrawn (an expired one too, until withdrawn or renewed by inviting the email again). Never carries its secret',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The invitation's id" }),
    email: t.exposeString('email', { description: 'The email invited' }),
    first_name: t.exposeString('first_name', { description: "The invitee's first name, if given (else empty)" }),
    last_name: t.exposeString('last_name', { description: "The invitee's last name, if given (else empty)" }),
    group_names: t.exposeStringList('group_names', {
      description: 'Groups the user joins on acceptance',
      extensions: { listSize: USER_GROUPS_MAX },
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When it was sent' }),
    expires_at: t.expose('expires_at', {
      type: 'DateTime',
      nullable: true,
      description: 'After this it cannot be accepted (it keeps its seat until withdrawn); null: never',
    }),
  }),
});

export const CreatedInvitationRef = builder
  .objectRef<{ invitation: Invitation; secret: string }>('CreatedInvitation')
  .implement({
    description: 'A new invitation and, this once, its secret',
    fields: (t) => ({
      invitation: t.field({ type: InvitationRef, description: 'The invitation', resolve: (r) => r.invitation }),
      secret: t.exposeString('secret', {
        description:
          'The single-use inv_ token for acceptInvitation: shown this once, never again (only its hash is stored). No mail is sent: hand it to the invitee',
      }),
    }),
  });

export const WithdrawnInvitationRef = builder.objectRef<{ id: number }>('WithdrawnInvitation').implement({
  description: 'The answer to withdrawInvitation',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The id of the invitation that was withdrawn' }) }),
});

// ---------- errors ----------

builder.objectType(EmailAlreadyUserError, {
  name: 'EmailAlreadyUserError',
  description: 'The email already belongs to a user of the service; nothing was created',
  interfaces: [ErrorInterface],
});
builder.objectType(AlreadyInvitedError, {
  name: 'AlreadyInvitedError',
  description: 'The organisation already has a pending invitation for this email; nothing was created',
  interfaces: [ErrorInterface],
});
builder.objectType(InvitationInvalidError, {
  name: 'InvitationInvalidError',
  description: 'Unknown, expired, withdrawn and already-used invitation tokens all answer this',
  interfaces: [ErrorInterface],
});
