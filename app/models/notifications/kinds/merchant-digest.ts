import { defineKind, SAMPLE_SHOP } from "../kind";

/** Queued by the daily mail job on the shop's digest day (scheduled-mail.server.ts). */
export default defineKind({
  key: "merchant.digest",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    "digest.period": "Nov 16 – Nov 22, 2026",
    "digest.clicks": "1,204",
    "digest.sales": "37",
    "digest.revenue": "$2,960.00",
    "digest.commission": "$296.00",
    "digest.pending": "4",
    admin_url: "https://app.example/admin",
  },
});
