import { z } from "zod";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { matchAcceptLanguage } from "../../i18n/choose-language";
import { formatMoneyIn } from "../../i18n/format";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { AppError } from "../../lib/errors";
import { planAllows } from "../plans/plans";
import { adminClientFor } from "../shopify/admin-client.server";
import { CUSTOMER_STORE_CREDIT } from "../shopify/admin-operations";
import { toMinorUnits } from "../shopify/money-string";
import { accountPageData, type AccountPageContext } from "./account-page.server";
import { customerGidOf, shopDomainOf, type CheckoutTokenClaims } from "./checkout-link.server";
import { readReferralProgram } from "./program-settings";
import { requestAdvocateLink, rewardText, storefrontUrl, widgetConditions } from "./storefront-proxy.server";

// The "Refer a friend" page in the new customer accounts
// (extensions/referral-customer-account, target customer-account.page.render)
// asks GET /api/customer-account/referrals with Shopify's session token:
// Shopify vouches for the shop (`dest`) and the signed-in customer (`sub`);
// nothing the extension sends says who anyone is. The answer is the same
// data as the storefront's account page (account-page.server.ts): the share
// link, the friends who ordered through it (e-mails masked), the rewards, and
// the customer's store credit balance in Shopify, with every text in the
// customer's language (the widget's texts, Account.Common:referFriend.*). POST
// makes the customer's link, with the e-mail of their own orders.

export const customerAccountQuery = z.object({
  // The customer account's language (shopify.localization.language), e.g. "de" or "pt-BR".
  locale: z.string().max(35).catch(""),
});
export type CustomerAccountQuery = z.infer<typeof customerAccountQuery>;

export interface FriendRow {
  /** The friend's e-mail, masked (maskEmailForAdvocate). */
  friend: string;
  date: string;
  status: string;
  reward: string;
}

export type CustomerReferralsAnswer =
  // Program off, plan without refer-a-friend, unknown shop, or no signed-in
  // customer in the token: the page says referrals are not available.
  | { status: "off" }
  | {
      status: "ready";
      lang: string;
      dir: "ltr" | "rtl";
      texts: Record<(typeof CUSTOMER_PAGE_TEXT_KEYS)[number], string>;
      /** The friend's reward in words ("10 % off"), and its conditions ("" when none). */
      reward: string;
      conditions: string;
      advocate: { shareUrl: string; friendCode: string | null } | null;
      /** No link yet, and the customer's orders carry an e-mail: POST makes it. */
      canJoin: boolean;
      friends: FriendRow[];
      rewarded: number;
      /** Store credit balances, formatted; null when Shopify could not say. */
      storeCredit: string[] | null;
    };

const OFF: CustomerReferralsAnswer = { status: "off" };

// The texts the page shows, all the storefront widget's and account page's
// (Account.Common:referFriend.*), so every account language has them.
export const CUSTOMER_PAGE_TEXT_KEYS = [
  "heading",
  "title",
  "description",
  "intro",
  "linkLabel",
  "codeLabel",
  "copy",
  "copied",
  "submit",
  "noLink",
  "friends",
  "noFriends",
  "friend",
  "date",
  "status",
  "reward",
  "rewardsEarned",
  "storeCredit",
  "preparing",
  "error",
] as const;

async function contextOf(claims: CheckoutTokenClaims, query: CustomerAccountQuery, request: Request) {
  // shopify-app-remix checks the signature and the times, not the audience.
  if (claims.aud !== getConfig().SHOPIFY_API_KEY)
    throw new AppError("unauthenticated", "The session token is for another app.");
  const domain = shopDomainOf(claims.dest);
  if (!domain) throw new AppError("unauthenticated", "The session token names no shop.");
  const customerGid = customerGidOf(claims.sub);
  const shop = await getDb().shop.findFirst({
    where: { domain, uninstalledAt: null },
    select: {
      id: true,
      name: true,
      domain: true,
      url: true,
      settings: true,
      currency: true,
      timezone: true,
      pricingPlan: true,
    },
  });
  if (!shop || !customerGid || !planAllows(shop.pricingPlan, "referAFriend")) return null;
  const program = readReferralProgram(shop.settings);
  if (!program.enabled) return null;
  const language =
    matchAcceptLanguage(query.locale) ??
    matchAcceptLanguage(request.headers.get("accept-language")) ??
    DEFAULT_LANGUAGE_INFO;
  const ctx: AccountPageContext = {
    shop: { ...shop, url: storefrontUrl(shop) },
    program,
    customerGid,
    language,
    t: fixedT(language, ["Account.Common"]),
  };
  return ctx;
}

/** The customer's store credit balances in Shopify, formatted; null when Shopify cannot be asked. */
async function storeCreditBalances(ctx: AccountPageContext) {
  try {
    const client = await adminClientFor(ctx.shop.domain);
    if (!client) return null;
    const { data } = await client.run(CUSTOMER_STORE_CREDIT, { id: ctx.customerGid! });
    if (!data.customer) return null;
    const balances = data.customer.storeCreditAccounts.nodes.map((a) => a.balance);
    if (!balances.length) return [formatMoneyIn(ctx.language.tag, 0, ctx.shop.currency)];
    return balances.map((b) => formatMoneyIn(ctx.language.tag, toMinorUnits(b.amount, b.currencyCode), b.currencyCode));
  } catch (error) {
    // The page still shows the link and the friends; the balance is left out.
    console.warn(`[customer-account] store credit of ${ctx.shop.domain} not read: ${(error as Error).message}`);
    return null;
  }
}

async function answerFor(ctx: AccountPageContext): Promise<CustomerReferralsAnswer> {
  const [data, storeCredit] = await Promise.all([accountPageData(ctx), storeCreditBalances(ctx)]);
  const { t, program } = ctx;
  const w = program.widget;
  const k = (key: string) => t(`Account.Common:referFriend.${key}`);
  const texts: Record<(typeof CUSTOMER_PAGE_TEXT_KEYS)[number], string> = {
    heading: w.buttonText || k("widget.buttonText"),
    title: w.title || k("widget.title"),
    description: w.description || k("widget.description"),
    intro: k("account.intro"),
    linkLabel: k("widget.linkLabel"),
    codeLabel: k("widget.codeLabel"),
    copy: k("widget.copy"),
    copied: k("widget.copied"),
    submit: k("widget.submit"),
    noLink: k("account.noLink"),
    friends: k("account.friends"),
    noFriends: k("account.noFriends"),
    friend: k("account.friend"),
    date: k("account.date"),
    status: k("account.status.label"),
    reward: k("account.reward"),
    rewardsEarned: k("account.rewardsEarned"),
    storeCredit: k("account.storeCredit"),
    preparing: k("widget.preparing"),
    error: k("widget.errors.generic"),
  };
  return {
    status: "ready",
    lang: ctx.language.tag,
    dir: ctx.language.dir,
    texts,
    reward: rewardText(ctx),
    conditions: widgetConditions(ctx),
    advocate: data.advocate,
    canJoin: data.canJoin,
    friends: data.referrals,
    rewarded: data.rewarded,
    storeCredit,
  };
}

/** GET: what the page shows. Reads only. */
export async function customerReferrals(
  claims: CheckoutTokenClaims,
  query: CustomerAccountQuery,
  request: Request,
): Promise<CustomerReferralsAnswer> {
  const ctx = await contextOf(claims, query, request);
  return ctx ? answerFor(ctx) : OFF;
}

/**
 * POST: makes the signed-in customer's link with the e-mail of their own
 * orders (as the storefront account page's button does), then answers as GET.
 * A customer without an order the app recorded gets no link (422).
 */
export async function joinFromCustomerAccount(
  claims: CheckoutTokenClaims,
  query: CustomerAccountQuery,
  request: Request,
): Promise<CustomerReferralsAnswer> {
  const ctx = await contextOf(claims, query, request);
  if (!ctx) return OFF;
  await requestAdvocateLink(
    // The rate limit counts per signed-in customer: the session token, not
    // an address, is what Shopify vouches for here.
    { ...ctx, ip: `customer:${ctx.customerGid}`, ipHash: null },
    { email: "", firstName: "" },
    "account",
  );
  return answerFor(ctx);
}
