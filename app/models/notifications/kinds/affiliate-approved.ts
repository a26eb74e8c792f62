import { getConfig } from "../../../config.server";
import { affiliateLink } from "../../../lib/affiliate-links";
import { defaultLandingPath, readPromoteLink } from "../../settings/promote-link";
import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP, type PlainContext } from "../kind";

/**
 * The link the welcome e-mail shares: the one Settings › Promote link puts
 * first (the short link unless the merchant chose the store link), to the
 * landing page and with the UTM parameters chosen there, as the affiliate's
 * Links page shows it.
 */
function approvedValues({ shop, affiliate }: PlainContext<"affiliate.approved" | "affiliate.created">) {
  const promote = readPromoteLink(shop.settings, shop.referralParam);
  const landing = defaultLandingPath(promote);
  if (promote.link_format === "store") {
    const url = new URL(landing, shop.url);
    url.searchParams.set(shop.referralParam, affiliate.referralCode);
    return { referral_link: url.toString() };
  }
  return { referral_link: affiliateLink(getConfig().appUrl, affiliate.referralCode, shop.domain, landing) };
}

/** Approved by the merchant, or signed up to a campaign that approves at once. */
export default defineKind({
  key: "affiliate.approved",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, referral_link: "https://app.example/r/aurora-candles/JANEDOE" },
  bulk: { "affiliate.approved": approvedValues },
  on: {
    "affiliate.created": {
      values: (ctx) =>
        ctx.event.data.source === "signup" && ctx.affiliate.status === "approved" ? approvedValues(ctx) : null,
    },
  },
});
