import { json } from "@remix-run/node";
import { customerAccountRoute } from "~/door/public-route.server";
import {
  customerAccountQuery,
  customerReferrals,
  joinFromCustomerAccount,
} from "~/models/referrals/customer-account-referrals.server";

// /api/customer-account/referrals?locale=: the "Refer a friend" page of the
// new customer accounts (extensions/referral-customer-account) with Shopify's
// session token as `Authorization: Bearer`. GET answers the signed-in
// customer's link, friends, rewards and store credit (reads only); POST makes
// their link. The door (customerAccountRoute) checks the token and answers
// the CORS preflight; the model compares `aud` and scopes everything to the
// token's shop and customer.

export const loader = /* @__PURE__ */ customerAccountRoute(
  { query: customerAccountQuery },
  async ({ request, query, sessionToken }) => json(await customerReferrals(sessionToken, query, request)),
);

export const action = /* @__PURE__ */ customerAccountRoute(
  { query: customerAccountQuery },
  async ({ request, query, sessionToken }) => json(await joinFromCustomerAccount(sessionToken, query, request)),
);
