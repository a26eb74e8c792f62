import type { ShopDb } from "../../db/shop-db.server";
import { getConfig } from "../../config.server";
import { parsePermissions } from "../../lib/areas";
import { AppError } from "../../lib/errors";
import { issuePasswordToken } from "../auth/password-token.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { queueEmail } from "../mail/outbox.server";
import { prepareNotification, shopLanguage } from "../notifications/compose-notification.server";
import type { StaffInvite, StaffUpdate } from "./staff-schemas";

// Staff accounts of a shop, managed by its admin (Settings > Staff). An
// invite creates the user (status "invited", no password) and a single-use
// link to /staff/get-password, e-mailed to them (staff.invite) and shown to
// the admin once to hand over as well; only its hash is stored.

export function inviteUrl(token: string) {
  return `${getConfig().appUrl}/staff/get-password?token=${encodeURIComponent(token)}`;
}

export async function listStaff(db: ShopDb) {
  const shopId = db.$shopId;
  const rows = await db.user.findMany({
    where: { shopId, role: "staff" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 500,
    select: { id: true, email: true, name: true, status: true, permissions: true, lastLoginAt: true, createdAt: true },
  });
  return rows.map((row) => ({
    ...row,
    permissions: parsePermissions(row.permissions),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

async function requireStaff(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const user = await db.user.findFirst({
    where: { id, shopId, role: "staff" },
    select: { id: true, status: true, passwordHash: true, email: true, name: true },
  });
  if (!user) throw new AppError("not_found", "No staff member with this id.");
  return user;
}

export async function inviteStaff(db: ShopDb, input: StaffInvite) {
  const shopId = db.$shopId;
  const taken = await db.user.findFirst({ where: { shopId, email: input.email }, select: { role: true } });
  if (taken) {
    const message =
      taken.role === "admin" ? "This is the store admin's e-mail." : "A staff member with this e-mail exists already.";
    throw new AppError("conflict", message, { fields: { email: message } });
  }
  const user = await db.user
    .create({
      data: {
        shopId,
        role: "staff",
        email: input.email,
        name: input.name,
        permissions: JSON.stringify(input.permissions),
        status: "invited",
      },
      select: { id: true, email: true },
    })
    .catch((error: unknown) => {
      if ((error as { code?: string })?.code === "P2002") {
        throw new AppError("conflict", "A staff member with this e-mail exists already.", {
          fields: { email: "A staff member with this e-mail exists already." },
        });
      }
      throw error;
    });
  const token = await issuePasswordToken(user.id, "invite");
  await mailInvite(db, user.email, input.name, inviteUrl(token));
  return { id: user.id, email: user.email, inviteUrl: inviteUrl(token) };
}

/** The invite e-mail (the admin can still copy the link from the answer). */
async function mailInvite(db: ShopDb, email: string, name: string, url: string) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { id: true, name: true, url: true, language: true },
  });
  // Rendered before the write: SQLite's write lock is not held while a template renders.
  const prepared = await prepareNotification(db, {
    shop,
    key: "staff.invite",
    to: email,
    language: shopLanguage(shop.language),
    values: { "shop.name": shop.name, "shop.url": shop.url, "staff.name": name, invite_url: url },
    dedupeBy: null,
  });
  if (prepared) await db.$transaction((tx) => queueEmail(tx, prepared));
  notifyJobsEnqueued();
}

/** A fresh invite link; earlier unused links of this person stop working. */
export async function renewInvite(db: ShopDb, id: string) {
  const user = await requireStaff(db, id);
  if (user.status === "disabled") throw new AppError("conflict", "Enable this staff member first.");
  await db.passwordToken.updateMany({ where: { userId: id, usedAt: null }, data: { usedAt: new Date() } });
  const token = await issuePasswordToken(id, user.passwordHash ? "reset" : "invite");
  if (!user.passwordHash) await mailInvite(db, user.email, user.name, inviteUrl(token));
  return { id, inviteUrl: inviteUrl(token) };
}

export async function updateStaff(db: ShopDb, input: StaffUpdate) {
  await requireStaff(db, input.id);
  await db.user.update({
    where: { id: input.id },
    data: { name: input.name, permissions: JSON.stringify(input.permissions) },
  });
  // Permissions are read on every request, so a change applies at once.
  return { id: input.id };
}

/** Disabling ends their sessions and invite links at once; enabling restores the earlier state. */
export async function setStaffEnabled(db: ShopDb, id: string, enabled: boolean) {
  const user = await requireStaff(db, id);
  const status = enabled ? (user.passwordHash ? "active" : "invited") : "disabled";
  await db.$transaction([
    db.user.update({ where: { id }, data: { status } }),
    ...(enabled
      ? []
      : [
          db.userSession.deleteMany({ where: { userId: id } }),
          db.passwordToken.updateMany({ where: { userId: id, usedAt: null }, data: { usedAt: new Date() } }),
        ]),
  ]);
  return { id, status };
}

export async function removeStaff(db: ShopDb, id: string) {
  await requireStaff(db, id);
  // Sessions and tokens go with the user (onDelete: Cascade).
  await db.user.delete({ where: { id } });
  return { id };
}
