import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** Composed before, and queued in, the transaction that records the code (recordCouponWithNotice). */
export default defineKind({
  key: "affiliate.coupon",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "coupon.code": "AFF-JANEDOE" },
});
