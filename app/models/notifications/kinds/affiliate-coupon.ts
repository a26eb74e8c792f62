import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** Queued by the coupons.create job in the transaction that records the code (notifyCouponAssigned). */
export default defineKind({
  key: "affiliate.coupon",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "coupon.code": "AFF-JANEDOE" },
});
