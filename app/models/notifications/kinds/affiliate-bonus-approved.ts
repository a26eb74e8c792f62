import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { money } from "../notification-values.server";

/** The merchant approved a bonus line a rule earned (bonuses/bonus-admin.server.ts emits bonus.approved). */
export default defineKind({
  key: "affiliate.bonus_approved",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "bonus.amount": "$50.00", "bonus.name": "November sales target" },
  on: {
    "bonus.approved": {
      values: async ({ reader, event, shop, language }) => {
        const rule = await reader.bonusRule.findFirst({
          where: { id: event.data.bonusRuleId, shopId: shop.id },
          select: { name: true },
        });
        return {
          "bonus.amount": money(language, event.data.amount, event.data.currency),
          "bonus.name": rule?.name ?? "",
        };
      },
    },
  },
});
