import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** A sign-up through the portal that waits for the merchant's review. */
export default defineKind({
  key: "affiliate.signup",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE },
  on: {
    "affiliate.created": {
      values: ({ event, affiliate }) => (event.data.source === "signup" && affiliate.status !== "approved" ? {} : null),
    },
  },
});
