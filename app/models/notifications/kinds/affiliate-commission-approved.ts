import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { mailOrder, money } from "../notification-values.server";

export default defineKind({
  key: "affiliate.commission_approved",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "commission.amount": "$12.50", "commission.order": "#1001" },
  on: {
    "commission.updated": {
      values: async ({ reader, event, shop, language }) => {
        const c = event.data;
        if (c.status !== "approved") return null;
        const order = await mailOrder(reader, shop.id, c.orderId);
        return { "commission.amount": money(language, c.amount, c.currency), "commission.order": order?.name ?? "" };
      },
    },
  },
});
