import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** Queued by the daily mail job (scheduled-mail.server.ts): a balance waits for a payout method. */
export default defineKind({
  key: "affiliate.payout_reminder",
  audience: "affiliate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "balance.amount": "$42.00",
    settings_url: "https://app.example/account/payouts",
  },
});
