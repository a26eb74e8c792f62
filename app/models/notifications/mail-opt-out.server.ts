import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { isNotificationKey, NOTIFICATIONS, notificationDef, type NotificationDef } from "./catalogue";
import { isPreferencesToken, type PreferenceLink } from "./mail-preferences";

// The unsubscribe link of a non-transactional e-mail: the RFC 8058
// one-click POST from the mail client, and the preference page a person
// reaches by clicking it (every kind of e-mail they may get, each with a
// checkbox; transactional kinds shown as always sent). All need the signed
// link; a transactional kind cannot be opted out of.

function checkLink(link: PreferenceLink) {
  const address = link.a.toLowerCase();
  if (!isPreferencesToken(getConfig().SESSION_SECRET, link.s, address, link.t)) {
    throw new AppError("not_found", "This unsubscribe link is not valid.");
  }
  const kind = link.k && isNotificationKey(link.k) && !notificationDef(link.k).transactional ? link.k : null;
  return { shopId: link.s, address, kind };
}

export async function unsubscribe(link: PreferenceLink) {
  const { shopId, address, kind } = checkLink(link);
  if (!kind) throw new AppError("validation_failed", "This link names no e-mail that can be unsubscribed from.");
  const shop = await getDb().shop.findUnique({ where: { id: shopId }, select: { id: true } });
  if (!shop) throw new AppError("not_found", "This unsubscribe link is not valid.");
  await getDb().mailOptOut.upsert({
    where: { shopId_address_kind: { shopId, address, kind } },
    create: { shopId, address, kind },
    update: {},
  });
  return { kind, unsubscribed: true };
}

/** The kinds an address can get: an affiliate's, a merchant user's (admin or staff), or both when unknown. */
async function kindsFor(shopId: string, address: string): Promise<NotificationDef[]> {
  const db = getDb();
  const [affiliate, user, shop] = await Promise.all([
    db.affiliate.findUnique({ where: { shopId_email: { shopId, email: address } }, select: { id: true } }),
    db.user.findFirst({ where: { shopId, email: address }, select: { id: true } }),
    db.shop.findUnique({ where: { id: shopId }, select: { adminEmail: true } }),
  ]);
  const merchant = Boolean(user) || shop?.adminEmail.toLowerCase() === address;
  const audiences =
    affiliate && !merchant ? ["affiliate"] : merchant && !affiliate ? ["merchant"] : ["affiliate", "merchant"];
  return NOTIFICATIONS.filter((n) => audiences.includes(n.audience));
}

export async function preferencesState(link: PreferenceLink) {
  const { shopId, address, kind } = checkLink(link);
  const shop = await getDb().shop.findUnique({ where: { id: shopId }, select: { name: true } });
  if (!shop) throw new AppError("not_found", "This unsubscribe link is not valid.");
  const [kinds, optOuts] = await Promise.all([
    kindsFor(shopId, address),
    getDb().mailOptOut.findMany({ where: { shopId, address }, select: { kind: true }, take: 100 }),
  ]);
  const out = new Set(optOuts.map((o) => o.kind));
  return {
    shopName: shop.name,
    address,
    kind,
    unsubscribed: Boolean(kind && out.has(kind)),
    kinds: kinds.map((n) => ({
      key: n.key,
      audience: n.audience,
      transactional: n.transactional,
      receive: n.transactional || !out.has(n.key),
    })),
  };
}

/** Saves the page's checkboxes: each non-transactional kind not ticked is opted out of, the others back in. */
export async function savePreferences(link: PreferenceLink, receive: readonly string[]) {
  const { shopId, address } = checkLink(link);
  const shop = await getDb().shop.findUnique({ where: { id: shopId }, select: { id: true } });
  if (!shop) throw new AppError("not_found", "This unsubscribe link is not valid.");
  const optional = (await kindsFor(shopId, address)).filter((n) => !n.transactional).map((n) => n.key);
  const off = optional.filter((k) => !receive.includes(k));
  await getDb().$transaction(async (tx) => {
    await tx.mailOptOut.deleteMany({
      where: { shopId, address, kind: { in: optional.filter((k) => !off.includes(k)) } },
    });
    for (const kind of off) {
      await tx.mailOptOut.upsert({
        where: { shopId_address_kind: { shopId, address, kind } },
        create: { shopId, address, kind },
        update: {},
      });
    }
  });
  return { saved: true };
}
