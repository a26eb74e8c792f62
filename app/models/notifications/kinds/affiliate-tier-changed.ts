import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** The auto-tier job moved the affiliate to another campaign (docs/decisions/027). */
export default defineKind({
  key: "affiliate.tier_changed",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "tier.name": "Gold partners", "tier.previous": "Silver partners" },
  on: {
    "affiliate.tier_changed": {
      values: async ({ reader, event, shop }) => {
        const move = event.data;
        const campaigns = await reader.campaign.findMany({
          where: { shopId: shop.id, id: { in: [move.fromCampaignId, move.toCampaignId] } },
          select: { id: true, name: true },
        });
        const name = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "";
        return { "tier.name": name(move.toCampaignId), "tier.previous": name(move.fromCampaignId) };
      },
    },
  },
});
