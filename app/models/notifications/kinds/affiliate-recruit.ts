import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { loadAffiliate } from "../notification-values.server";

/** To the parent of a new affiliate (multi-level): someone joined through them. */
export default defineKind({
  key: "affiliate.recruit",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "recruit.name": "Sam Lee" },
  on: {
    "affiliate.created": {
      recipient: ({ reader, shop, affiliate }) =>
        affiliate.parentId ? loadAffiliate(reader, shop.id, affiliate.parentId) : Promise.resolve(null),
      values: ({ affiliate }) => ({ "recruit.name": `${affiliate.firstName} ${affiliate.lastName}`.trim() }),
    },
  },
});
