import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { mailOrder, money } from "../notification-values.server";

/** A refund or cancellation took a commission back, in part or whole. */
export default defineKind({
  key: "affiliate.commission_reversed",
  audience: "affiliate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "commission.order": "#1001",
    "commission.original": "$12.50",
    "commission.reduction": "-$5.00",
    "commission.remaining": "$7.50",
  },
  on: {
    // The order was cancelled: the whole line is gone.
    "commission.updated": {
      values: async ({ reader, event, shop, language }) => {
        const c = event.data;
        if (c.status !== "void") return null;
        const order = await mailOrder(reader, shop.id, c.orderId);
        return {
          "commission.order": order?.name ?? "",
          "commission.original": money(language, c.amount, c.currency),
          "commission.reduction": money(language, -c.amount, c.currency),
          "commission.remaining": money(language, 0, c.currency),
        };
      },
    },
    // A refund: a negative commission on the same order.
    "commission.created": {
      values: async ({ reader, event, shop, affiliate, language }) => {
        const c = event.data;
        if (c.kind === "sale") return null;
        const order = await mailOrder(reader, shop.id, c.orderId);
        const rows = await reader.commission.findMany({
          where: { orderId: c.orderId, affiliateId: affiliate.id, currency: c.currency, status: { not: "void" } },
          select: { kind: true, amount: true, level: true },
        });
        const original = rows.filter((r) => r.kind === "sale").reduce((sum, r) => sum + r.amount, 0);
        const remaining = rows.reduce((sum, r) => sum + r.amount, 0);
        return {
          "commission.order": order?.name ?? "",
          "commission.original": money(language, original, c.currency),
          "commission.reduction": money(language, c.amount, c.currency),
          "commission.remaining": money(language, remaining, c.currency),
        };
      },
    },
  },
});
