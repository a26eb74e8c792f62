import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { currencyExponent } from "../../lib/money";
import { enqueueJob } from "../jobs/enqueue.server";
import { adminClientFor } from "../shopify/admin-client.server";
import { CODE_DISCOUNT_BY_CODE, DISCOUNT_CODE_BASIC_CREATE } from "../shopify/admin-operations";
import { discountInput } from "./coupon-template";

// Coupon codes the merchant types on an affiliate's page (or sends through
// the API or an import) are discount codes in Shopify too: a "coupons.push"
// job, queued in the transaction that stored them, creates each in Shopify
// with the campaign's discount settings. At least once, so idempotent: a
// code Shopify already has is marked created, not created again. A refusal
// is kept on the code (the affiliate page shows it) and the job fails, so the
// queue retries it with backoff.

export const COUPON_SHOPIFY_STATES = ["pending", "created", "failed", "unsynced"] as const;
export type CouponShopifyState = (typeof COUPON_SHOPIFY_STATES)[number];

/** Queues the push of an affiliate's new codes, in the caller's transaction. */
export async function queueCouponPush(tx: Tx, affiliateId: string) {
  await enqueueJob(tx, "coupons.push", { affiliateId });
}

export class CouponPushError extends Error {}

export async function pushTypedCoupons(
  payload: { affiliateId: string },
  db: Db,
): Promise<{ created: string[]; failed: string[]; state: "done" | "no access" | "gone" }> {
  const affiliate = await db.affiliate.findUnique({
    where: { id: payload.affiliateId },
    select: {
      id: true,
      firstName: true,
      lastName: true,
      campaign: true,
      shop: { select: { domain: true, currency: true, uninstalledAt: true } },
      coupons: { where: { shopifyStatus: { in: ["pending", "failed"] } }, select: { id: true, code: true } },
    },
  });
  if (!affiliate || affiliate.shop.uninstalledAt) return { created: [], failed: [], state: "gone" };
  if (affiliate.coupons.length === 0) return { created: [], failed: [], state: "done" };
  const client = await adminClientFor(affiliate.shop.domain);
  if (!client) {
    // A standalone shop without Admin access: said on the page, nothing to retry.
    await db.coupon.updateMany({
      where: { id: { in: affiliate.coupons.map((c) => c.id) }, shopifyStatus: "pending" },
      data: { shopifyStatus: "unsynced", shopifyError: null },
    });
    return { created: [], failed: [], state: "no access" };
  }
  const title = `${affiliate.campaign.name}: ${affiliate.firstName} ${affiliate.lastName}`.trim().slice(0, 255);
  const created: string[] = [];
  const failed: string[] = [];
  for (const coupon of affiliate.coupons) {
    const mark = (shopifyStatus: CouponShopifyState, shopifyError: string | null) =>
      // Compare-and-set: a code removed or replaced meanwhile is left alone.
      db.coupon.updateMany({
        where: { id: coupon.id, shopifyStatus: { in: ["pending", "failed"] } },
        data: { shopifyStatus, shopifyError },
      });
    const exists = async () =>
      Boolean((await client.run(CODE_DISCOUNT_BY_CODE, { code: coupon.code })).data.codeDiscountNodeByCode);
    if (await exists()) {
      await mark("created", null);
      created.push(coupon.code);
      continue;
    }
    const answer = await client.run(DISCOUNT_CODE_BASIC_CREATE, {
      input: discountInput(affiliate.campaign, coupon.code, title, currencyExponent(affiliate.shop.currency)),
    });
    const errors = answer.data.discountCodeBasicCreate.userErrors;
    // Another attempt may have created it between the look-up and here.
    if (errors.length === 0 || (await exists())) {
      await mark("created", null);
      created.push(coupon.code);
    } else {
      await mark(
        "failed",
        errors
          .map((e) => e.message)
          .join("; ")
          .slice(0, 500),
      );
      failed.push(coupon.code);
    }
  }
  if (failed.length) throw new CouponPushError(`Shopify refused coupon codes ${failed.join(", ")}`);
  return { created, failed, state: "done" };
}
