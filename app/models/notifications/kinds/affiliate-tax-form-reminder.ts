import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

/** Queued when a payout waits for the affiliate's tax form (tax-forms/tax-form-reminder.server.ts). */
export default defineKind({
  key: "affiliate.tax_form_reminder",
  audience: "affiliate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "payout.amount": "$2,150.00",
    tax_form_url: "https://app.example/account/payouts/tax-form",
  },
});
