import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues } from "../notification-values.server";

/** A portal sign-up waits for the merchant's review. */
export default defineKind({
  key: "merchant.signup",
  audience: "merchant",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, admin_url: "https://app.example/admin/affiliates/sample" },
  on: {
    "affiliate.created": {
      values: ({ event, shop, affiliate }) =>
        event.data.source === "signup" && affiliate.status !== "approved"
          ? { ...affiliateValues(shop, affiliate), admin_url: adminUrl(`/affiliates/${affiliate.id}`) }
          : null,
    },
  },
});
