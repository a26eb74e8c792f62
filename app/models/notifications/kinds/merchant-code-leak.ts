import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues } from "../notification-values.server";

/** Leak watch (ADR 051): an affiliate's code looks leaked and the commissions of its orders are held. */
export default defineKind({
  key: "merchant.code_leak",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "leak.code": "JANEDOE",
    "leak.orders": "6",
    admin_url: "https://app.example/admin/sales/leaks",
  },
  on: {
    "leak.flagged": {
      values: ({ event, shop, affiliate }) => ({
        ...affiliateValues(shop, affiliate),
        "leak.code": event.data.code,
        "leak.orders": String(event.data.orders),
        admin_url: adminUrl("/sales/leaks"),
      }),
    },
  },
});
