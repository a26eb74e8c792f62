import { defineKind, SAMPLE_SHOP } from "../kind";

/**
 * Refer-a-friend: an advocate's share link, sent to the address typed into
 * the widget when the visitor is not the signed-in customer it belongs to
 * (referrals/storefront-proxy.server.ts). Not transactional: whoever typed
 * the address, its owner can unsubscribe.
 */
export default defineKind({
  key: "advocate.share_link",
  audience: "advocate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    "advocate.first_name": "Jane",
    "advocate.email": "jane@example.com",
    share_url: "https://aurora-candles.example/?invite=k7m3q9xw2h",
  },
});
