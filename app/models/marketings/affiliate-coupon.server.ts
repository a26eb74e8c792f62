import { randomUUID } from "node:crypto";
import type { Db } from "../../db.server";
import type { BulkSql } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import type { EventSubscriber } from "../events/event-subscriber";
import { jobRow, notifyJobsEnqueued } from "../jobs/enqueue.server";
import { queueEmail } from "../mail/outbox.server";
import { prepareCouponAssigned } from "../notifications/notification-subscriber.server";
import { adminClientFor } from "../shopify/admin-client.server";
import { CODE_DISCOUNT_BY_CODE, DISCOUNT_CODE_BASIC_CREATE } from "../shopify/admin-operations";
import { couponCode, discountInput } from "./coupon-template";

/**
 * Event subscriber: an approved affiliate gets the campaign's coupon, created
 * in Shopify by a job. Approval is announced as affiliate.approved when a
 * status changes, and as affiliate.created with status "approved" when the
 * affiliate is approved from the start (an auto-approving campaign, the
 * admin's form, an import).
 */
const queueCoupon = (affiliateId: string, eventId: string) => (writer: BulkSql) =>
  writer.insertRows("Job", [couponJob(affiliateId, eventId, new Date())], { onConflict: "ignore" });

/** The coupons.create job an approval queues: keyed by the event, so a replayed dispatch queues it once. */
export const couponJob = (affiliateId: string, eventId: string, now: Date) =>
  jobRow("coupons.create", { affiliateId }, { now, uniqueKey: `coupons.create:${eventId}` });

/** Event subscriber: an affiliate approved (or created approved) gets a coupons.create job. */
export const couponSubscriber: EventSubscriber = {
  "affiliate.approved": async (_reader, event) => queueCoupon(event.data.affiliateId, event.id),
  "affiliate.created": async (_reader, event) =>
    event.data.status === "approved" ? queueCoupon(event.data.affiliateId, event.id) : undefined,
};

/**
 * The "coupons.create" job: creates the affiliate's discount code in Shopify
 * per the campaign's coupon settings and records it as the affiliate's
 * coupon. At least once: a code Shopify already has (an earlier attempt that
 * died before recording it) is recorded, not created twice; an affiliate who
 * already has the code, a campaign without coupons, or a shop without Admin
 * access does nothing.
 */
export async function createAffiliateCoupon(payload: { affiliateId: string }, db: Db): Promise<string> {
  const affiliate = await db.affiliate.findUnique({
    where: { id: payload.affiliateId },
    select: {
      id: true,
      shopId: true,
      status: true,
      firstName: true,
      lastName: true,
      referralCode: true,
      campaign: true,
      shop: { select: { domain: true } },
    },
  });
  if (!affiliate || affiliate.status !== "approved") return "not approved";
  if (!affiliate.campaign.couponEnabled) return "coupons off";
  const code = couponCode(affiliate.campaign.couponPrefix, affiliate.referralCode);
  const existing = await db.coupon.findUnique({ where: { shopId_code: { shopId: affiliate.shopId, code } } });
  if (existing) return "exists";

  const client = await adminClientFor(affiliate.shop.domain);
  if (!client) return "no access";
  const found = await client.run(CODE_DISCOUNT_BY_CODE, { code });
  if (!found.data.codeDiscountNodeByCode) {
    const title = `${affiliate.campaign.name}: ${affiliate.firstName} ${affiliate.lastName}`.trim().slice(0, 255);
    const created = await client.run(DISCOUNT_CODE_BASIC_CREATE, {
      input: discountInput(affiliate.campaign, code, title),
    });
    const errors = created.data.discountCodeBasicCreate.userErrors;
    if (errors.length)
      throw new Error(`discountCodeBasicCreate refused ${code}: ${errors.map((e) => e.message).join("; ")}`);
  }
  // The code and the e-mail telling the affiliate about it commit together:
  // the e-mail goes out only once the code exists, and only once (keyed on the coupon).
  await recordCouponWithNotice(db, { shopId: affiliate.shopId, affiliateId: affiliate.id, code });
  notifyJobsEnqueued();
  return "created";
}

/**
 * Records a coupon (the code exists in Shopify) and its "coupon code
 * assigned" e-mail in one transaction; the e-mail is composed first, for the
 * id the coupon will have. `beside` runs in the same transaction and says
 * whether the e-mail is still due. If another writer recorded the code
 * meanwhile, its coupon keys the e-mail, composed then (a rare race).
 */
export async function recordCouponWithNotice(
  db: Db,
  coupon: { shopId: string; affiliateId: string; code: string },
  beside: (tx: Tx, couponId: string) => Promise<boolean> = async () => true,
) {
  const id = randomUUID();
  const mail = await prepareCouponAssigned(db, id, coupon.affiliateId, coupon.code);
  await db.$transaction(async (tx) => {
    const recorded = await tx.coupon.upsert({
      where: { shopId_code: { shopId: coupon.shopId, code: coupon.code } },
      create: { id, ...coupon },
      update: {},
      select: { id: true },
    });
    if (!(await beside(tx, recorded.id))) return;
    if (recorded.id !== id) {
      const theirs = await prepareCouponAssigned(tx, recorded.id, coupon.affiliateId, coupon.code);
      if (theirs) await queueEmail(tx, theirs);
    } else if (mail) await queueEmail(tx, mail);
  });
}
