import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { isNotificationKey, notificationDef } from "./catalogue";
import { isPreferencesToken, type PreferenceLink } from "./mail-preferences";

// The unsubscribe link of a non-transactional e-mail: the RFC 8058
// one-click POST from the mail client, and the page a person reaches by
// clicking it. Both need the signed link; a transactional kind cannot be
// opted out of.

function checkLink(link: PreferenceLink) {
  const address = link.a.toLowerCase();
  if (!isPreferencesToken(getConfig().SESSION_SECRET, link.s, address, link.t)) {
    throw new AppError("not_found", "This unsubscribe link is not valid.");
  }
  const kind = link.k && isNotificationKey(link.k) && !notificationDef(link.k).transactional ? link.k : null;
  return { shopId: link.s, address, kind };
}

export async function unsubscribeState(link: PreferenceLink) {
  const { shopId, address, kind } = checkLink(link);
  const row = kind
    ? await getDb().mailOptOut.findUnique({ where: { shopId_address_kind: { shopId, address, kind } } })
    : null;
  return { kind, unsubscribed: Boolean(row) };
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
