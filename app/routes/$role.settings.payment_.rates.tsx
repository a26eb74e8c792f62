import { merchantRoute } from "~/door/merchant-route.server";
import { rateEntryFormSchema } from "~/models/currency/rate-entry-schema";
import { addMerchantRate } from "~/models/payouts/rate-table.server";

// Settings › Payment › "Add rate": one entry of the merchant's own rate
// table, true from now, recorded with who entered it (ADR 052).
export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: rateEntryFormSchema },
  async ({ db, body, user }) => ({ added: await addMerchantRate(db, body, user.name || user.email) }),
);
