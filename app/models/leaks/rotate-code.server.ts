import type { Db } from "../../db.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { currencyExponent } from "../../lib/money";
import { discountInput } from "../marketings/coupon-template";
import { recordCouponWithNotice } from "../marketings/affiliate-coupon.server";
import { adminClientFor } from "../shopify/admin-client.server";
import {
  CODE_DISCOUNT_BY_CODE,
  DISCOUNT_CODE_BASIC_CREATE,
  DISCOUNT_CODE_DEACTIVATE,
} from "../shopify/admin-operations";

// The leaks.rotate job (ADR 051): after a merchant rotated a flagged code,
// the new code (chosen with the answer, LeakFlag.newCode) is created in
// Shopify with the campaign's coupon settings, the way an approved
// affiliate's coupon is (marketings/affiliate-coupon.server.ts), and the old
// one is deactivated. At least once: each step looks first (a code Shopify
// already has is not created again; an old code already ended is left), and
// the records (new coupon, old one disabled, flag done, the affiliate's
// e-mail with the new code) commit together once Shopify has both.

export type RotateOutcome = "done" | "not rotated" | "no access";

export async function rotateLeakedCode(payload: { flagId: string }, db: Db): Promise<RotateOutcome> {
  const flag = await db.leakFlag.findUnique({
    where: { id: payload.flagId },
    select: {
      id: true,
      shopId: true,
      code: true,
      newCode: true,
      status: true,
      rotation: true,
      shop: { select: { domain: true, currency: true } },
      affiliate: { select: { id: true, firstName: true, lastName: true, campaign: true } },
    },
  });
  if (!flag || flag.status !== "rotated" || !flag.newCode) return "not rotated";
  if (flag.rotation === "done") return "done";
  const { shopId, newCode, affiliate } = flag;
  const fail = (error: string) =>
    db.leakFlag.updateMany({
      where: { id: flag.id, rotation: { not: "done" } },
      data: { rotation: "failed", rotationError: error.slice(0, 500) },
    });

  const client = await adminClientFor(flag.shop.domain);
  if (!client) {
    await fail("no Admin API access");
    return "no access";
  }
  try {
    const found = await client.run(CODE_DISCOUNT_BY_CODE, { code: newCode });
    if (!found.data.codeDiscountNodeByCode) {
      const title = `${affiliate.campaign.name}: ${affiliate.firstName} ${affiliate.lastName}`.trim().slice(0, 255);
      const created = await client.run(DISCOUNT_CODE_BASIC_CREATE, {
        input: discountInput(affiliate.campaign, newCode, title, currencyExponent(flag.shop.currency)),
      });
      const errors = created.data.discountCodeBasicCreate.userErrors;
      if (errors.length)
        throw new Error(`discountCodeBasicCreate refused ${newCode}: ${errors.map((e) => e.message).join("; ")}`);
    }
    const old = await client.run(CODE_DISCOUNT_BY_CODE, { code: flag.code });
    const node = old.data.codeDiscountNodeByCode;
    if (node && node.codeDiscount.status !== "EXPIRED") {
      const ended = await client.run(DISCOUNT_CODE_DEACTIVATE, { id: node.id });
      const errors = ended.data.discountCodeDeactivate.userErrors;
      if (errors.length)
        throw new Error(`discountCodeDeactivate refused ${flag.code}: ${errors.map((e) => e.message).join("; ")}`);
    }
  } catch (error) {
    await fail(error instanceof Error ? error.message : String(error));
    throw error;
  }

  const now = new Date();
  await recordCouponWithNotice(db, { shopId, affiliateId: affiliate.id, code: newCode }, async (tx) => {
    await tx.coupon.updateMany({ where: { shopId, code: flag.code, disabledAt: null }, data: { disabledAt: now } });
    const marked = await tx.leakFlag.updateMany({
      where: { id: flag.id, rotation: { not: "done" } },
      data: { rotation: "done", rotationError: null },
    });
    // The affiliate hears of the new code once (the e-mail is keyed on the coupon).
    return marked.count === 1;
  });
  notifyJobsEnqueued();
  return "done";
}
