import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP, type PlainContext } from "../kind";

/** The referral link of an approved affiliate (the shop's URL with its referral parameter). */
function approvedValues({ shop, affiliate }: PlainContext<"affiliate.approved" | "affiliate.created">) {
  const url = shop.url.replace(/\/$/, "");
  return { referral_link: `${url}/?${shop.referralParam}=${encodeURIComponent(affiliate.referralCode)}` };
}

/** Approved by the merchant, or signed up to a campaign that approves at once. */
export default defineKind({
  key: "affiliate.approved",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, referral_link: "https://aurora-candles.example/?ref=JANEDOE" },
  bulk: { "affiliate.approved": approvedValues },
  on: {
    "affiliate.created": {
      values: (ctx) =>
        ctx.event.data.source === "signup" && ctx.affiliate.status === "approved" ? approvedValues(ctx) : null,
    },
  },
});
