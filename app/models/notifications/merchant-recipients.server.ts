import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { NOTIFICATIONS, type NotificationKey } from "./catalogue";

// Who receives the merchant e-mails (sign-up waiting, sale, payout failed,
// digest): the shop's admin address always (it can unsubscribe like anyone),
// and each user of the app who opted in to that kind on the Notifications
// screen ("E-mails to me", User.mailKinds). Disabled users and invites not
// yet accepted get nothing.

/** The merchant kinds a user can opt in to. */
export const MERCHANT_KINDS = NOTIFICATIONS.filter((n) => n.audience === "merchant").map((n) => n.key);

export function parseMailKinds(json: string): NotificationKey[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? MERCHANT_KINDS.filter((k) => parsed.includes(k)) : [];
  } catch {
    return [];
  }
}

export async function merchantRecipients(
  tx: Pick<Tx, "user">,
  shop: { id: string; adminEmail: string },
  key: NotificationKey,
): Promise<string[]> {
  const users = await tx.user.findMany({
    where: { shopId: shop.id, status: "active", mailKinds: { not: "[]" } },
    select: { email: true, mailKinds: true },
    take: 500,
  });
  const addresses = [
    shop.adminEmail,
    ...users.filter((u) => parseMailKinds(u.mailKinds).includes(key)).map((u) => u.email),
  ]
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(addresses)];
}

/** The signed-in user's choices, for the Notifications screen. */
export async function myMailKinds(db: ShopDb, userId: string) {
  const user = await db.user.findFirst({ where: { id: userId, shopId: db.$shopId }, select: { mailKinds: true } });
  if (!user) throw new AppError("not_found", "No such user.");
  return parseMailKinds(user.mailKinds);
}

export async function saveMyMailKinds(db: ShopDb, userId: string, kinds: readonly string[]) {
  const chosen = MERCHANT_KINDS.filter((k) => kinds.includes(k));
  const saved = await db.user.updateMany({
    where: { id: userId, shopId: db.$shopId },
    data: { mailKinds: JSON.stringify(chosen) },
  });
  if (saved.count !== 1) throw new AppError("not_found", "No such user.");
  return { mailKinds: chosen };
}
