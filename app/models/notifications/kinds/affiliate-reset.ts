import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** Queued by the portal's "forgot password" (affiliate-account/password-reset.server.ts). */
export default defineKind({
  key: "affiliate.reset",
  audience: "affiliate",
  transactional: true,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    reset_url: "https://app.example/portal/aurora-candles/reset?token=sample",
    link_expires: "60 minutes",
  },
});
