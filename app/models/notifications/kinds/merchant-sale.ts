import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues, mailOrder, money } from "../notification-values.server";

/** An affiliate was credited with a sale. */
export default defineKind({
  key: "merchant.sale",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "sale.order": "#1001",
    "sale.amount": "$85.00",
    admin_url: "https://app.example/admin/sales",
  },
  on: {
    "sale.credited": {
      values: async ({ reader, event, shop, affiliate, language }) => {
        const order = await mailOrder(reader, shop.id, event.data.orderId);
        if (!order) return null;
        return {
          ...affiliateValues(shop, affiliate),
          "sale.order": order.name,
          "sale.amount": money(language, order.subtotal, order.currency),
          admin_url: adminUrl("/sales"),
        };
      },
    },
  },
});
