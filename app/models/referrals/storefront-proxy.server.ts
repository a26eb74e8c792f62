import type { TFunction } from "i18next";
import { z } from "zod";
import { getDb } from "../../db.server";
import { matchAcceptLanguage } from "../../i18n/choose-language";
import { formatMoneyIn, formatNumberIn } from "../../i18n/format";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO, type LanguageInfo } from "../../i18n/language-table";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { proxyVisitorAddress } from "../../lib/visitor-address.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { queueEmail } from "../mail/outbox.server";
import { prepareNotification } from "../notifications/compose-notification.server";
import { planAllows } from "../plans/plans";
import { ensureAdvocate, type AdvocateLink } from "./ensure-advocate.server";
import { emailKey } from "./email-key";
import { uniqueFriendCode } from "./friend-discount";
import { hashIp } from "./ip-hash.server";
import { readReferralProgram, type ReferralProgram } from "./program-settings";
import { consumeReferralLimit } from "./rate-limit.server";
import { isShareToken } from "./share-link";

// The storefront's side of refer-a-friend, reached through Shopify's app
// proxy (https://{shop}/apps/affiliate/referrals/* → {app}/proxy/referrals/*):
// the widget's settings and texts, an advocate's link, a friend's code, and
// the customer's page. Shopify signs every proxied request; the shop is the
// signed `shop` parameter and the logged-in customer the signed
// `logged_in_customer_id`, never anything the visitor chose.
//
// Consent: the script asks for the widget and the codes without marketing
// consent (showing a discount the visitor asked for tracks nobody), and only
// with consent sends `visit=1` and a device id, which record a ReferralVisit
// (a keyed hash of the address, the device id) for the fraud checks.

const ERR = (key: string) => msg(`Account.Common:referFriend.widget.errors.${key}`);

/** What every proxied referral request carries (Shopify adds the signed parts). */
export const referralProxyQuery = z.object({
  shop: z.string().max(255).catch(""),
  logged_in_customer_id: z.string().max(32).catch(""),
  // The storefront's locale (window.Shopify.locale), e.g. "de" or "pt-BR".
  locale: z.string().max(35).catch(""),
});
export type ReferralProxyQuery = z.infer<typeof referralProxyQuery>;

export interface ReferralProxyContext {
  shop: { id: string; name: string; domain: string; url: string; settings: string; currency: string; timezone: string };
  program: ReferralProgram;
  customerGid: string | null;
  language: LanguageInfo;
  t: TFunction;
  ip: string;
  ipHash: string | null;
}

/** The storefront's address (https://...): the shop's URL when usable, else its myshopify domain. */
export function storefrontUrl(shop: { url: string; domain: string }): string {
  try {
    const url = new URL(shop.url);
    if (url.protocol === "https:" || url.protocol === "http:") return url.origin + "/";
  } catch {
    // not a URL
  }
  return `https://${shop.domain}/`;
}

/**
 * Resolves the shop of a proxied request whose signature the door checked
 * (appProxyRoute), and refuses (403) when its plan lacks refer-a-friend or
 * the program is off.
 */
export async function referralProxyContext(request: Request, query: ReferralProxyQuery): Promise<ReferralProxyContext> {
  // Shopify's signature was checked by the door (appProxyRoute): `shop` is signed.
  const shop = query.shop
    ? await getDb().shop.findFirst({
        where: { domain: query.shop.toLowerCase(), uninstalledAt: null },
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
      })
    : null;
  if (!shop) throw new AppError("not_found", ERR("off"));
  const program = readReferralProgram(shop.settings);
  if (!program.enabled || !planAllows(shop.pricingPlan, "referAFriend")) throw new AppError("forbidden", ERR("off"));
  const language =
    matchAcceptLanguage(query.locale) ??
    matchAcceptLanguage(request.headers.get("accept-language")) ??
    DEFAULT_LANGUAGE_INFO;
  // The address Shopify's proxy appended; the visitor writes the entries before it.
  const ip = proxyVisitorAddress(request);
  const customerId = /^\d{1,20}$/.test(query.logged_in_customer_id) ? query.logged_in_customer_id : null;
  return {
    shop: {
      id: shop.id,
      name: shop.name,
      domain: shop.domain,
      url: storefrontUrl(shop),
      settings: shop.settings,
      currency: shop.currency,
      timezone: shop.timezone,
    },
    program,
    customerGid: customerId ? `gid://shopify/Customer/${customerId}` : null,
    language,
    t: fixedT(language, ["Account.Common"]),
    ip,
    ipHash: hashIp(ip === "unknown" ? null : ip),
  };
}

// ---- texts ---------------------------------------------------------------------

/** The friend's reward in words ("10 % off", "€5.00 off", "free shipping"). */
export function rewardText(ctx: Pick<ReferralProxyContext, "t" | "language" | "program" | "shop">): string {
  const r = ctx.program.friendReward;
  if (r.type === "free_shipping") return ctx.t("Account.Common:referFriend.widget.freeShipping");
  const amount =
    r.type === "percentage"
      ? formatNumberIn(ctx.language.tag, r.value / 10_000, { style: "percent", maximumFractionDigits: 2 })
      : formatMoneyIn(ctx.language.tag, r.value, ctx.shop.currency);
  return ctx.t("Account.Common:referFriend.widget.rewardOff", { amount });
}

/** The friend's reward's conditions in words ("On orders from €50.00."), "" when there are none. */
export function widgetConditions(ctx: Pick<ReferralProxyContext, "t" | "language" | "program" | "shop">): string {
  const r = ctx.program.friendReward;
  return r.minimumOrder > 0
    ? ctx.t("Account.Common:referFriend.widget.minimumOrder", {
        amount: formatMoneyIn(ctx.language.tag, r.minimumOrder, ctx.shop.currency),
      })
    : "";
}

/** The widget's look and every text it shows, in the visitor's language (the merchant's own texts win). */
export function widgetPayload(ctx: ReferralProxyContext) {
  const { t, program } = ctx;
  const reward = rewardText(ctx);
  const w = program.widget;
  const k = (key: string, values?: Record<string, string>) => t(`Account.Common:referFriend.widget.${key}`, values);
  return {
    lang: ctx.language.tag,
    dir: ctx.language.dir,
    widget: { position: w.position, color: w.color, textColor: w.textColor },
    loggedIn: Boolean(ctx.customerGid),
    reward,
    texts: {
      button: w.buttonText || k("buttonText"),
      title: w.title || k("title"),
      description: w.description || k("description"),
      conditions: widgetConditions(ctx),
      emailLabel: k("emailLabel"),
      submit: k("submit"),
      linkLabel: k("linkLabel"),
      codeLabel: k("codeLabel"),
      copy: k("copy"),
      copied: k("copied"),
      share: k("share"),
      close: k("close"),
      preparing: k("preparing"),
      sent: k("sent"),
      error: k("errors.generic"),
    },
  };
}

// ---- the advocate ----------------------------------------------------------------

export const advocateBody = z.object({
  email: z.string().trim().max(254).optional().default(""),
  firstName: z.string().trim().max(100).optional().default(""),
});

/** The e-mails the shop's orders tie to a customer (newest first). */
export async function customerEmails(shopId: string, customerGid: string): Promise<string[]> {
  const rows = await getDb().order.findMany({
    where: { shopId, customerGid, customerEmail: { not: null } },
    orderBy: { placedAt: "desc" },
    select: { customerEmail: true },
    take: 20,
  });
  return [...new Set(rows.map((r) => r.customerEmail!))];
}

/**
 * Whether this person has ordered in the shop before: an order (not
 * cancelled) of the signed-in customer or with this e-mail, in the orders the
 * app has recorded (those since the app was installed).
 */
export async function hasOrdered(shopId: string, email: string, customerGid: string | null): Promise<boolean> {
  const emails = [...new Set([email, email.toLowerCase()])].filter(Boolean);
  const found = await getDb().order.findFirst({
    where: {
      shopId,
      cancelledAt: null,
      OR: [...(customerGid ? [{ customerGid }] : []), ...(emails.length ? [{ customerEmail: { in: emails } }] : [])],
    },
    select: { id: true },
  });
  return Boolean(found);
}

async function withRetryOnRace<T>(work: () => Promise<T>): Promise<T> {
  // Two requests for one e-mail (or one device's code) at once: the other
  // made the row; read it. Under PostgreSQL the loser can be told of the
  // conflict a moment before the winner's row is visible to a new read, so
  // it looks again, briefly, before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      // P2002: the other made the row; P2034: PostgreSQL ended one of two
      // racing transactions (write conflict or deadlock). Both are safe to
      // run again: the work is idempotent.
      const code = (error as { code?: unknown }).code;
      if ((code !== "P2002" && code !== "P2034") || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

export type AdvocateAnswer =
  ({ kind: "link" } & AdvocateLink & { codePending: boolean }) | { kind: "sent"; email: string };

/**
 * An advocate's link for the e-mail given (or the signed-in customer's).
 *
 * The link (with the advocate's first name and friends' code) is answered
 * only to the signed-in customer the shop's orders tie to that e-mail: a
 * signed customer id is Shopify's word, a typed address is anyone's to type.
 * Anyone else is sent the link by e-mail (at most one e-mail an hour per
 * advocate) and told so, whoever the address belongs to; a withdrawn
 * advocate is not made active again from such a call, and gets no e-mail.
 */
export async function requestAdvocateLink(
  ctx: ReferralProxyContext,
  body: z.infer<typeof advocateBody>,
  source: "widget" | "account",
): Promise<AdvocateAnswer> {
  await consumeReferralLimit("advocate", `${ctx.shop.id}:${ctx.ipHash ?? ctx.ip}`);
  const known = ctx.customerGid ? await customerEmails(ctx.shop.id, ctx.customerGid) : [];
  const email = body.email || known[0] || "";
  if (!email) throw new AppError("validation_failed", ERR("email"), { fields: { email: ERR("email") } });
  const ownEmail = known.some((e) => emailKey(e) === emailKey(email));
  const ordered = await hasOrdered(ctx.shop.id, email, ownEmail ? ctx.customerGid : null);
  const link = await withRetryOnRace(() =>
    getDb().$transaction((tx) =>
      ensureAdvocate(tx, ctx.shop, {
        email,
        customerGid: ownEmail ? ctx.customerGid : null,
        firstName: body.firstName,
        hasOrdered: ordered,
        source,
        reactivate: ownEmail,
      }),
    ),
  );
  if (ownEmail) return { kind: "link", ...link, codePending: ctx.program.codeMode === "shared" && !link.friendCode };
  if (!link.withdrawn) await sendLinkEmail(ctx, link, email);
  return { kind: "sent", email };
}

async function sendLinkEmail(ctx: ReferralProxyContext, link: AdvocateLink, email: string) {
  // Rendered before the write transaction (the write lock is not held while
  // a template renders); one e-mail an hour per advocate, whoever asks.
  const prepared = await prepareNotification(getDb(), {
    shop: ctx.shop,
    key: "advocate.share_link",
    to: email,
    language: ctx.language,
    values: {
      "shop.name": ctx.shop.name,
      "shop.url": ctx.shop.url,
      "advocate.first_name": link.firstName,
      "advocate.email": email,
      share_url: link.shareUrl,
    },
    dedupeBy: `advocate-link:${link.advocateId}:${Math.floor(Date.now() / 3_600_000)}`,
  });
  if (prepared) await getDb().$transaction((tx) => queueEmail(tx, prepared));
}

// ---- the friend --------------------------------------------------------------------

const deviceId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/)
  .nullable()
  .catch(null);

export const inviteQuery = referralProxyQuery.extend({
  token: z.string().max(64).catch(""),
  // The script's id for this browser (kept with marketing consent only).
  device: deviceId,
  // 1: a landing through the share link with consent (record the visit).
  visit: z.enum(["0", "1"]).catch("0"),
});

export interface InviteAnswer {
  status: "ready" | "pending";
  code: string | null;
  token: string;
  texts: {
    title: string;
    reward: string;
    body: string;
    conditions: string;
    apply: string;
    preparing: string;
    close: string;
  };
}

/**
 * A friend opened a share link: records the visit (with consent), and
 * answers the friend's code: the advocate's shared one, or in unique mode
 * this device's single-use one (asked for once per device: the same code
 * again on every later call). A code still being made in Shopify answers
 * "pending"; the popup asks again.
 */
export async function openInvite(ctx: ReferralProxyContext, query: z.infer<typeof inviteQuery>): Promise<InviteAnswer> {
  const token = query.token.trim().toLowerCase();
  const advocate = isShareToken(token)
    ? await getDb().referralAdvocate.findFirst({
        where: { shopId: ctx.shop.id, token, disabledAt: null },
        select: { id: true, firstName: true, friendCode: true, friendDiscountGid: true },
      })
    : null;
  if (!advocate) throw new AppError("not_found", ERR("invalidInvite"));

  if (query.visit === "1")
    await getDb().$transaction(async (tx) => {
      await tx.referralVisit.create({
        data: { shopId: ctx.shop.id, advocateId: advocate.id, ipHash: ctx.ipHash, deviceId: query.device },
      });
      // A shared code never made (the advocate joined while the program
      // gave unique codes): ask for it, at most once a minute.
      if (ctx.program.codeMode === "shared" && !advocate.friendDiscountGid)
        await enqueueJob(
          tx,
          "referrals.friend-code",
          { advocateId: advocate.id },
          { uniqueKey: `referrals.friend-code:${advocate.id}:${Math.floor(Date.now() / 60_000)}` },
        );
    });

  let code: string | null = null;
  let ready = false;
  if (ctx.program.codeMode === "shared") {
    code = advocate.friendCode;
    ready = Boolean(advocate.friendCode && advocate.friendDiscountGid);
  } else {
    // Without a device id (no consent) each page view would be a new
    // requester: the code is asked for with a per-page key then, and the
    // per-address limit below keeps that from farming codes.
    const requestKey = query.device ?? `page:${crypto.randomUUID()}`;
    const row = await withRetryOnRace(async () => {
      const existing = await getDb().referralFriendCode.findUnique({
        where: { advocateId_requestKey: { advocateId: advocate.id, requestKey } },
        select: { code: true, discountGid: true },
      });
      if (existing) return existing;
      await consumeReferralLimit("friendCode", `${ctx.shop.id}:${ctx.ipHash ?? ctx.ip}`);
      return getDb().$transaction(async (tx) => {
        const created = await tx.referralFriendCode.create({
          data: { shopId: ctx.shop.id, advocateId: advocate.id, requestKey, code: uniqueFriendCode() },
          select: { code: true, discountGid: true },
        });
        await enqueueJob(tx, "referrals.friend-code", { advocateId: advocate.id });
        return created;
      });
    });
    code = row.code;
    ready = Boolean(row.discountGid);
  }

  const { t } = ctx;
  const reward = rewardText(ctx);
  const w = ctx.program.widget;
  return {
    status: ready ? "ready" : "pending",
    code: ready ? code : null,
    token,
    texts: {
      // The merchant's own texts win; the friend's reward is said apart.
      title: w.friendTitle || t("Account.Common:referFriend.widget.friendTitle"),
      reward,
      body: w.friendDescription || t("Account.Common:referFriend.widget.friendDescription"),
      conditions: widgetConditions(ctx),
      apply: t("Account.Common:referFriend.widget.apply"),
      preparing: t("Account.Common:referFriend.widget.preparing"),
      close: t("Account.Common:referFriend.widget.close"),
    },
  };
}
