import { createCookie, redirect, type Session } from "@remix-run/node";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { loginPathWithReturn } from "../../lib/auth-steps";
import { memoForRequest } from "../../lib/request-memo.server";
import { createDbSessionStorage, type DbSessionStorage } from "../auth/db-session-storage.server";
import { portalShopSelect, requestWay, type PortalShop } from "../portal/portal-context.server";
import { PORTAL_SHOP_HEADER, type PortalWay } from "../../lib/portal-ways";

// Affiliate login sessions: cookie __affiliate_session and table
// AffiliateSession, apart from the merchant's __merchant_session/UserSession,
// so one kind of session can never open the other's pages. The session knows
// the affiliate and, through it, the shop.
export const AFFILIATE_COOKIE = "__affiliate_session";
const MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

export interface AffiliateSessionData {
  affiliateId: string;
  shopId: string;
}

let storage: DbSessionStorage<AffiliateSessionData> | undefined;

function affiliateSessionStorage(): DbSessionStorage<AffiliateSessionData> {
  storage ??= createDbSessionStorage<AffiliateSessionData>({
    cookieName: AFFILIATE_COOKIE,
    maxAgeSeconds: MAX_AGE_SECONDS,
    ownerKey: "affiliateId",
    rows: {
      create: ({ id, ownerId, data, expiresAt }) =>
        getDb().affiliateSession.create({ data: { id, affiliateId: ownerId, data, expiresAt } }),
      find: (id) => getDb().affiliateSession.findUnique({ where: { id }, select: { data: true, expiresAt: true } }),
      update: (id, data, expiresAt) =>
        getDb().affiliateSession.updateMany({ where: { id }, data: { data, ...(expiresAt ? { expiresAt } : {}) } }),
      remove: (id) => getDb().affiliateSession.deleteMany({ where: { id } }),
    },
  });
  return storage;
}

// Remembers which shop's portal this browser last used (not secret: the shop
// handle), so /account/... can send a logged-out visitor to the right login.
const lastPortal = () =>
  createCookie("__affiliate_portal", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 24 * 3600 });

export function rememberPortal(handle: string): Promise<string> {
  return lastPortal().serialize(handle, { secure: getConfig().isHttps });
}

export async function getAffiliateSession(request: Request): Promise<Session<AffiliateSessionData>> {
  return affiliateSessionStorage().getSession(request.headers.get("Cookie"));
}

export async function startAffiliateSession(affiliateId: string, shopId: string): Promise<string> {
  const s = affiliateSessionStorage();
  const session = await s.getSession();
  session.set("affiliateId", affiliateId);
  session.set("shopId", shopId);
  return s.commitSession(session, { expires: new Date(Date.now() + MAX_AGE_SECONDS * 1000) });
}

export async function endAffiliateSession(request: Request): Promise<string> {
  const s = affiliateSessionStorage();
  return s.destroySession(await getAffiliateSession(request));
}

const affiliateSelect = {
  id: true,
  shopId: true,
  campaignId: true,
  parentId: true,
  email: true,
  firstName: true,
  lastName: true,
  status: true,
  referralCode: true,
  paypalEmail: true,
  payoutMethod: true,
  website: true,
  language: true,
  createdAt: true,
} as const;

export interface AffiliateContext {
  affiliate: {
    id: string;
    shopId: string;
    campaignId: string;
    parentId: string | null;
    email: string;
    firstName: string;
    lastName: string;
    status: string;
    referralCode: string;
    paypalEmail: string | null;
    payoutMethod: string | null;
    website: string | null;
    language: string | null;
    createdAt: Date;
  };
  shop: PortalShop;
  way: PortalWay;
  /** Prefix of this shop's portal pages on the current host. */
  pagesBase: string;
}

/** Statuses that may log in: pending affiliates see their account with a notice. */
export const LOGIN_STATUSES = ["approved", "pending"];

/**
 * The affiliate of the session cookie, whatever their status, with their
 * shop: the session row with its affiliate in one query, looked up once per
 * document (the root loader's language choice, the layout's and the page's
 * doors share it). The row's affiliateId is the session's (written once, at
 * login); its shopId must match the affiliate's.
 */
export function sessionAffiliate(request: Request, context?: unknown) {
  return memoForRequest(request, context, "affiliate-user", async () => {
    const live = await affiliateSessionStorage().liveRow(request.headers.get("Cookie"), (id) =>
      getDb().affiliateSession.findUnique({
        where: { id },
        select: {
          data: true,
          expiresAt: true,
          affiliate: {
            select: {
              ...affiliateSelect,
              shop: { select: { ...portalShopSelect, uninstalledAt: true, translationsVersion: true } },
            },
          },
        },
      }),
    );
    return live && live.data.shopId === live.row.affiliate.shopId ? live.row.affiliate : null;
  });
}

/** The logged-in affiliate of /account/..., or a redirect to the right login page. */
export async function requireAffiliate(request: Request, context?: unknown): Promise<AffiliateContext> {
  const way = requestWay(request);
  const customHost = way === "custom" ? request.headers.get(PORTAL_SHOP_HEADER) : null;
  const found = await sessionAffiliate(request, context);
  const affiliate = found && LOGIN_STATUSES.includes(found.status) && found.shop.uninstalledAt === null ? found : null;
  // On a custom domain only that shop's affiliates are at home.
  if (!affiliate || (customHost && affiliate.shop.portalDomain !== customHost)) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    if (customHost) throw redirect(loginPathWithReturn("/login", back));
    const handle = await lastPortal().parse(request.headers.get("Cookie"));
    if (typeof handle === "string" && /^[a-z0-9-]+$/.test(handle))
      throw redirect(loginPathWithReturn(`/portal/${handle}/login`, back));
    throw redirect("/account/login-needed");
  }
  const { shop: shopWithState, ...rest } = affiliate;
  const { uninstalledAt: _uninstalledAt, translationsVersion: _translationsVersion, ...shop } = shopWithState;
  const handle = shop.domain.replace(/\.myshopify\.com$/, "");
  return { affiliate: rest, shop, way, pagesBase: way === "custom" ? "" : `/portal/${handle}` };
}
