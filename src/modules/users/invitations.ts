/**
 * Invitations (docs/team.md). An administrator invites an email; the invite holds a seat until it is accepted or
 * withdrawn (an expired one too, until withdrawn or renewed by inviting the email again). Its secret is single-use and shown once, in the answer to inviteUser: only its sha256 is
 * stored, and there is no mail sender here, so the administrator hands it to the invitee.
 *
 * Concurrency: inviting counts seats and looks for a pending invite of the same email under the organisation's row
 * lock (the lock reactivation takes too), so at the last seat exactly one of any number of concurrent invitations
 * and reactivations wins, across processes. Acceptance claims the invite with one conditional UPDATE, so a token is
 * used at most once however many requests present it.
 */
import { randomBytes } from 'node:crypto';
import type { Invitation } from '../../generated/prisma/client.ts';
import { FieldErrors, ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { Db } from '../../lib/db.ts';
import type { Caller } from '../../lib/caller.ts';
import { hashPassword } from '../auth/index.ts';
import { OPERATOR_PERMISSIONS, isOperatorPermission } from '../../lib/permissions.ts';
import { sha256 } from '../auth/index.ts';
import { USER_GROUPS_MAX } from '../../lib/permissions.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { AlreadyInvitedError, EmailAlreadyUserError, InvitationInvalidError, SeatLimitReachedError } from './errors.ts';
import { lockOrganisation } from '../organisations/index.ts';
import { seatsOf } from './service.ts';
import { queueAccountEvent } from '../notifications/index.ts';

/** An invitation can be accepted for this long after it is made. */
const INVITATION_TTL_DAYS = 14;
/** The secret's prefix: a token is recognisable in a support ticket or a secret scanner. */
const INVITATION_TOKEN_PREFIX = 'inv_';
/** Longest name accepted (the same bound as PUT /users/{id}). */
const NAME_MAX = 150;
/** Password policy (docs/team.md): bcrypt reads at most 72 bytes, so a longer password would be silently cut. */
const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_BYTES = 72;

type TeamCtx = Pick<ServiceContext, 'prisma' | 'client' | 'clock'>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const isEmail = (value: string): boolean => value.length <= 254 && EMAIL.test(value);

export interface InviteUserInput {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  group_names?: readonly string[] | null;
}

function checkName(errors: FieldErrors, field: string, value: string | null | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed.length > NAME_MAX) errors.add(field, `Ensure this field has no more than ${NAME_MAX} characters.`);
  return trimmed;
}

/** The caller's own organisation, or 403: team management is for an organisation's administrators. */
function organisationOf(ctx: TeamCtx, caller: Caller): { id: number; name: string } {
  if (!caller.organisation || !caller.isAdmin) throw new ForbiddenError(say('forbidden_manage_users', ctx.client));
  return caller.organisation;
}

/** Under the organisation's lock: the caller is still an active administrator of it (a concurrent edit may demote). */
async function requireActiveAdmin(tx: Db, ctx: TeamCtx, caller: Caller, organisationId: number): Promise<void> {
  const me = await tx.user.findUnique({
    where: { id: caller.userId },
    select: { organisation_id: true, is_admin: true, is_active: true },
  });
  if (!me || me.organisation_id !== organisationId || !me.is_admin || !me.is_active)
    throw new ForbiddenError(say('forbidden_manage_users', ctx.client));
}

export async function inviteUser(
  ctx: TeamCtx,
  caller: Caller,
  input: InviteUserInput,
): Promise<{ invitation: Invitation; secret: string }> {
  const organisation = organisationOf(ctx, caller);
  const errors = new FieldErrors();
  const email = (input.email ?? '').trim().toLowerCase();
  if (!isEmail(email)) errors.add('email', 'Enter a valid email address.');
  const first_name = checkName(errors, 'first_name', input.first_name);
  const last_name = checkName(errors, 'last_name', input.last_name);
  const group_names = [...new Set((input.group_names ?? []).map((g) => g.trim()))];
  if (group_names.length > USER_GROUPS_MAX) errors.add('group_names', `Name at most ${USER_GROUPS_MAX} groups.`);
  else if (group_names.length) {
    const known = await ctx.prisma.group.findMany({
      where: { name: { in: group_names } },
      select: { name: true, permissions: { select: { codename: true } } },
    });
    // A group granting an operator permission (editing the shared asset tree) is the operator's to fill: an admin
    // naming it would hand that right to an account of its own choosing.
    const operatorGroups = known.filter((k) => k.permissions.some((p) => isOperatorPermission(p.codename)));
    if (operatorGroups.length)
      throw new ForbiddenError(
        say('forbidden_operator_group', ctx.client, { groups: operatorGroups.map((g) => g.name).join(', ') }),
      );
    const unknown = group_names.filter((g) => !known.some((k) => k.name === g));
    if (unknown.length) errors.add('group_names', `Unknown group: ${unknown.join(', ')}.`);
  }
  errors.throwIfAny();

  const now = ctx.clock.now();
  const secret = `${INVITATION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const invitation = await ctx.prisma.$transaction(async (tx) => {
    await lockOrganisation(tx, organisation.id);
    await requireActiveAdmin(tx, ctx, caller, organisation.id);
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw new EmailAlreadyUserError();
    const pending = await tx.invitation.findFirst({
      where: { organisation_id: organisation.id, email, accepted_at: null },
      select: { id: true, expires_at: true },
    });
    if (pending && (pending.expires_at === null || pending.expires_at > now)) throw new AlreadyInvitedError();
    // Inviting an expired invite's email again renews it: the old row (and its secret) goes, its seat is reused.
    if (pending) await tx.invitation.delete({ where: { id: pending.id } });
    const seats = await seatsOf(tx, organisation.id);
    if (seats.limit !== null && seats.used >= seats.limit)
      throw new SeatLimitReachedError(
        say('seat_limit_reached', ctx.client, { used: seats.used, limit: seats.limit }),
        seats,
      );
    const created = await tx.invitation.create({
      data: {
        organisation_id: organisation.id,
        email,
        first_name,
        last_name,
        group_names,
        token_hash: sha256(secret),
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000),
        invited_by_id: caller.userId,
      },
    });
    await queueAccountEvent(tx, organisation.id, null, {
      title: 'Invitation sent',
      body: `${email} was invited to join ${organisation.name}.`,
      data: { kind: 'invitation_created', invitation_id: created.id },
    });
    return created;
  });
  return { invitation, secret };
}

/** Withdraws a pending invite of the caller's organisation (expired ones too); it frees its seat at once. */
export async function withdrawInvitation(ctx: TeamCtx, caller: Caller, id: number): Promise<{ id: number }> {
  const organisation = organisationOf(ctx, caller);
  return ctx.prisma.$transaction(async (tx) => {
    await lockOrganisation(tx, organisation.id);
    await requireActiveAdmin(tx, ctx, caller, organisation.id);
    const invitation = await tx.invitation.findFirst({
      where: { id, organisation_id: organisation.id, accepted_at: null },
      select: { email: true },
    });
    // Another organisation's invite, an accepted one and a missing id answer alike.
    if (!invitation) throw new NotFoundError(say('not_found_invitation', ctx.client));
    // Deleted, not flagged: its token then matches nothing, exactly like an unknown one. An acceptance that committed
    // after the read above leaves nothing to delete: the invite is spent, so the answer is the accepted one's.
    const deleted = await tx.invitation.deleteMany({ where: { id, accepted_at: null } });
    if (deleted.count !== 1) throw new NotFoundError(say('not_found_invitation', ctx.client));
    await queueAccountEvent(tx, organisation.id, null, {
      title: 'Invitation withdrawn',
      body: `The invitation for ${invitation.email} was withdrawn.`,
      data: { kind: 'invitation_withdrawn', invitation_id: id },
    });
    return { id };
  });
}

export interface AcceptInvitationInput {
  token: string;
  password: string;
  first_name?: string | null;
  last_name?: string | null;
}

function checkPassword(errors: FieldErrors, password: string, email: string): void {
  if (password.length < PASSWORD_MIN_LENGTH)
    errors.add('password', `Ensure this field has at least ${PASSWORD_MIN_LENGTH} characters.`);
  else if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES)
    errors.add('password', `Ensure this field has no more than ${PASSWORD_MAX_BYTES} bytes.`);
  else if (password.trim().toLowerCase() === email) errors.add('password', 'The password cannot be your email.');
}

/**
 * Creates the invitee's user in the inviting organisation, in one transaction with spending the invite. Needs no
 * sign-in: the token is the credential. Answers the new user; the client then signs in with the email and the
 * password (POST /auth/login), so sign-in stays in one place with its throttle and sessions.
 */
export async function acceptInvitation(ctx: TeamCtx, input: AcceptInvitationInput) {
  const token = typeof input.token === 'string' ? input.token : '';
  // Shape first: a string that cannot be a token never reaches the database (and costs no hashing).
  if (!token.startsWith(INVITATION_TOKEN_PREFIX) || token.length > 100) throw new InvitationInvalidError();
  const now = ctx.clock.now();
  const token_hash = sha256(token);
  const live = { token_hash, accepted_at: null, OR: [{ expires_at: null }, { expires_at: { gt: now } }] };
  const invitation = await ctx.prisma.invitation.findFirst({ where: live });
  if (!invitation) throw new InvitationInvalidError();

  const errors = new FieldErrors();
  checkPassword(errors, typeof input.password === 'string' ? input.password : '', invitation.email);
  const first_name = checkName(errors, 'first_name', input.first_name ?? invitation.first_name);
  const last_name = checkName(errors, 'last_name', input.last_name ?? invitation.last_name);
  errors.throwIfAny();
  const password_hash = await hashPassword(input.password);

  try {
    return await ctx.prisma.$transaction(async (tx) => {
      // The claim: of any number of concurrent acceptances one updates the row; withdrawal (a delete) and expiry
      // are re-checked here, after the password hashing above.
      const claimed = await tx.invitation.updateMany({
        where: { id: invitation.id, ...live },
        data: { accepted_at: now },
      });
      if (claimed.count !== 1) throw new InvitationInvalidError();
      if (await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } }))
        throw new EmailAlreadyUserError();
      // A group that has come to grant an operator permission since the invitation was made is left out: only the
      // operator adds members to those.
      const groups = await tx.group.findMany({
        where: {
          name: { in: invitation.group_names },
          permissions: { none: { codename: { in: [...OPERATOR_PERMISSIONS] } } },
        },
        select: { id: true },
      });
      const user = await tx.user.create({
        data: {
          email: invitation.email,
          password_hash,
          first_name,
          last_name,
          organisation_id: invitation.organisation_id,
          is_admin: false,
          is_active: true,
          // The secret reached the invitee through the administrator, not through the mailbox: nothing is verified.
          is_email_verified: false,
          created: now,
          groups: { connect: groups },
        },
        include: { groups: { include: { permissions: true } } },
      });
      await queueAccountEvent(tx, invitation.organisation_id, user.id, {
        title: 'Invitation accepted',
        body: `${invitation.email} joined the organisation.`,
        data: { kind: 'invitation_accepted', invitation_id: invitation.id, user_id: user.id },
      });
      return user;
    });
  } catch (error) {
    // Two invitations of one email (from two organisations) accepted at once: the unique email decides.
    if ((error as { code?: string }).code === 'P2002') throw new EmailAlreadyUserError();
    throw error;
  }
}
