import type { Tx } from "../../db/transaction";
import { enqueueJob } from "../jobs/enqueue.server";

// Shopify's mandatory privacy webhooks and the uninstall clean-up.

export const SHOP_ERASE_DELAY_MS = 48 * 60 * 60 * 1000;

interface CustomerRef {
  id?: string | number | null;
  email?: string | null;
}

function customerKeys(customer: CustomerRef) {
  const keys: string[] = [];
  if (customer.id !== undefined && customer.id !== null) keys.push(`gid://shopify/Customer/${customer.id}`);
  if (customer.email) keys.push(customer.email.toLowerCase());
  return keys;
}

function customerOrderWhere(shopId: string, customer: CustomerRef) {
  const or = [];
  if (customer.id !== undefined && customer.id !== null)
    or.push({ customerGid: `gid://shopify/Customer/${customer.id}` });
  if (customer.email) or.push({ customerEmail: customer.email.toLowerCase() });
  return { shopId, OR: or };
}

/** customers/data_request: collects what the app holds on the customer. */
export async function exportCustomerData(
  tx: Tx,
  shopId: string,
  payload: { customer: CustomerRef; data_request?: { id?: string | number } },
) {
  const where = customerOrderWhere(shopId, payload.customer);
  const orders = where.OR.length
    ? await tx.order.findMany({
        where,
        select: {
          shopifyGid: true,
          name: true,
          customerEmail: true,
          subtotal: true,
          currency: true,
          placedAt: true,
          attributionSource: true,
          attributionReason: true,
        },
      })
    : [];
  const links = await tx.customerLink.findMany({
    where: { shopId, customerKey: { in: customerKeys(payload.customer) } },
    select: { customerKey: true, createdAt: true, affiliate: { select: { referralCode: true } } },
  });
  const affiliate = payload.customer.email
    ? await tx.affiliate.findFirst({
        where: { shopId, email: payload.customer.email.toLowerCase() },
        select: {
          email: true,
          firstName: true,
          lastName: true,
          paypalEmail: true,
          website: true,
          createdAt: true,
          referralCode: true,
        },
      })
    : null;
  const requestId = String(payload.data_request?.id ?? `request-${Date.now()}`);
  const data = JSON.stringify({
    customer: payload.customer,
    orders,
    lifetimeLinks: links,
    affiliateAccount: affiliate,
  });
  await tx.customerDataExport.upsert({
    where: { shopId_requestId: { shopId, requestId } },
    create: { shopId, requestId, customerKey: customerKeys(payload.customer).join(" "), data },
    update: { data },
  });
}

/** customers/redact: erases the customer's personal data from orders and links. */
export async function redactCustomer(tx: Tx, shopId: string, payload: { customer: CustomerRef }) {
  const where = customerOrderWhere(shopId, payload.customer);
  if (where.OR.length) {
    await tx.order.updateMany({ where, data: { customerEmail: null, customerGid: null } });
  }
  await tx.customerLink.deleteMany({ where: { shopId, customerKey: { in: customerKeys(payload.customer) } } });
  await tx.customerDataExport.deleteMany({ where: { shopId, customerKey: customerKeys(payload.customer).join(" ") } });
}

/** app/uninstalled: the shop's tokens go now; its data 48 hours later. */
export async function markUninstalled(tx: Tx, shopDomain: string, now = new Date()) {
  await tx.session.deleteMany({ where: { shop: shopDomain } });
  const shop = await tx.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) return;
  await tx.shop.update({ where: { id: shop.id }, data: { uninstalledAt: now } });
  await enqueueJob(
    tx,
    "shop.erase",
    { shopDomain },
    { runAt: new Date(now.getTime() + SHOP_ERASE_DELAY_MS), uniqueKey: `erase:${shopDomain}:${now.getTime()}` },
  );
}

/**
 * Erases a shop and everything it owns (shop/redact, or 48 hours after
 * uninstall). A shop that was installed again since keeps its data.
 */
export async function eraseShop(tx: Tx, shopDomain: string, opts: { force: boolean; now?: Date }) {
  const shop = await tx.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, uninstalledAt: true } });
  if (!shop) return false;
  const now = opts.now ?? new Date();
  if (!opts.force && (!shop.uninstalledAt || now.getTime() - shop.uninstalledAt.getTime() < SHOP_ERASE_DELAY_MS))
    return false;
  await tx.session.deleteMany({ where: { shop: shopDomain } });
  await tx.webhookEvent.deleteMany({ where: { shopDomain } });
  // Foreign keys cascade from Shop to every table of the shop.
  await tx.commission.deleteMany({ where: { shopId: shop.id } });
  await tx.payout.deleteMany({ where: { shopId: shop.id } });
  await tx.order.deleteMany({ where: { shopId: shop.id } });
  await tx.click.deleteMany({ where: { shopId: shop.id } });
  await tx.coupon.deleteMany({ where: { shopId: shop.id } });
  await tx.customerLink.deleteMany({ where: { shopId: shop.id } });
  await tx.affiliate.updateMany({ where: { shopId: shop.id }, data: { parentId: null } });
  await tx.affiliate.deleteMany({ where: { shopId: shop.id } });
  await tx.shop.delete({ where: { id: shop.id } });
  return true;
}
