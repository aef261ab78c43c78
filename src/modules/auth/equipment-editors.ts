/**
 * The operator's grant of `change_equipment` (editing the shared asset tree) to a user, and its withdrawal. Run by the
 * operator's command line (`npm run equipment-editors`), never by an API: no tenant can reach it. The right is
 * membership of a group granting the permission; the database keeps each user's permission codenames in step with
 * membership in the same transaction. docs/asset-tree.md, "Who may edit the tree".
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { PermissionCodename } from '../../lib/permissions.ts';

/** The group the command line puts users in; created (granting change_equipment) on the first grant. */
export const EQUIPMENT_EDITORS_GROUP = 'Equipment editors';
const CODENAME: PermissionCodename = 'change_equipment';

export class UnknownUserError extends Error {
  constructor(email: string) {
    super(`No user has the email ${email}.`);
  }
}

const emailKey = (email: string) => email.trim().toLowerCase();

async function userOf(prisma: PrismaClient, email: string): Promise<{ id: number; email: string }> {
  const user = await prisma.user.findFirst({
    where: { email: { equals: emailKey(email), mode: 'insensitive' } },
    select: { id: true, email: true },
  });
  if (!user) throw new UnknownUserError(email.trim());
  return user;
}

/** Puts the user in the equipment editors' group (made when missing, its permission added when absent). */
export async function grantEquipmentEditing(prisma: PrismaClient, email: string): Promise<{ email: string }> {
  const user = await userOf(prisma, email);
  await prisma.group.upsert({
    where: { name: EQUIPMENT_EDITORS_GROUP },
    create: {
      name: EQUIPMENT_EDITORS_GROUP,
      permissions: { connectOrCreate: { where: { codename: CODENAME }, create: { codename: CODENAME } } },
      users: { connect: { id: user.id } },
    },
    update: {
      permissions: { connectOrCreate: { where: { codename: CODENAME }, create: { codename: CODENAME } } },
      users: { connect: { id: user.id } },
    },
  });
  return { email: user.email };
}

/**
 * Takes the user out of every group that grants change_equipment (the command line's group and any a catalogue file
 * made), so the right is gone whichever way it was given. Answers the groups left.
 */
export async function revokeEquipmentEditing(
  prisma: PrismaClient,
  email: string,
): Promise<{ email: string; groups: string[] }> {
  const user = await userOf(prisma, email);
  return prisma.$transaction(async (tx) => {
    const groups = await tx.group.findMany({
      where: { users: { some: { id: user.id } }, permissions: { some: { codename: CODENAME } } },
      select: { id: true, name: true },
      orderBy: { name: 'asc' },
    });
    await tx.user.update({
      where: { id: user.id },
      data: { groups: { disconnect: groups.map((g) => ({ id: g.id })) } },
    });
    return { email: user.email, groups: groups.map((g) => g.name) };
  });
}

/** Every user holding change_equipment, by email. */
export async function equipmentEditors(prisma: PrismaClient): Promise<string[]> {
  const users = await prisma.user.findMany({
    where: { permission_codenames: { has: CODENAME } },
    select: { email: true },
    orderBy: { email: 'asc' },
  });
  return users.map((u) => u.email);
}
