import { json, redirect } from "@remix-run/node";
import { getDb } from "../../db.server";
import type { Shop } from "../../db/generated/sqlite";
import { shopify } from "../../shopify.server";
import { canUseArea, isRole, parsePermissions, type Area, type Role, type StaffArea } from "../../lib/areas";
import { loginPathWithReturn } from "../../lib/auth-steps";
import { roleLoginPath } from "../../lib/shop-loading";
import { writeOnRead } from "../../db/db-context";
import { findOrInstallShop } from "../shop/install-shop.server";
import { memoForRequest } from "../../lib/request-memo.server";
import { getMerchantSession, merchantSessionUser } from "./user-session.server";

export interface MerchantContext {
  role: Role;
  mode: "embedded" | "standalone";
  shop: Shop;
  user: { id: string | null; name: string; email: string; role: Role; permissions: StaffArea[] };
  // Embedded only: App Bridge host parameter, for reloads.
  host: string | null;
}

/** A request made from inside the Shopify admin (App Bridge adds these). */
export function isEmbeddedRequest(request: Request): boolean {
  if (request.headers.get("authorization")?.startsWith("Bearer ")) return true;
  const params = new URL(request.url).searchParams;
  return params.has("id_token") || params.get("embedded") === "1";
}

/** 403 with no data of the page; `home` is where this user's dashboard is. */
export function forbidden(home: string | null = null, message = "You don't have permission to use this page.") {
  return json({ error: { code: "forbidden", message }, home }, { status: 403 });
}

export function notFound(message = "Page not found") {
  return json({ error: { code: "not_found", message } }, { status: 404 });
}

interface Options {
  area?: Area;
  // API routes answer 401 JSON instead of redirecting to a login page.
  api?: boolean;
  /** The request's load context: the loaders of one document share the session lookup. */
  context?: unknown;
}

/**
 * The logged-in merchant user (active) with their shop, from the session
 * cookie, or null: looked up once per document request (request-memo).
 */
export function sessionUserWithShop(request: Request, context?: unknown) {
  return memoForRequest(request, context, "merchant-user", () => merchantSessionUser(request));
}

/** Where a logged-in merchant belongs, for /login and /staff/login. */
export async function loggedInHome(request: Request): Promise<string | null> {
  const userId = (await getMerchantSession(request)).get("userId");
  if (!userId) return null;
  const user = await getDb().user.findFirst({ where: { id: userId, status: "active" }, select: { role: true } });
  return user ? `/${user.role === "staff" ? "staff" : "admin"}/dashboard` : null;
}

/**
 * Authenticates a merchant request for /{role}/... and checks the area.
 * Throws a redirect (to login, or to the right role prefix), a 403 or a 404.
 */
export async function requireMerchant(
  request: Request,
  roleParam: string | undefined,
  options: Options = {},
): Promise<MerchantContext> {
  const url = new URL(request.url);
  if (!isRole(roleParam)) throw notFound();
  const role: Role = roleParam;

  if (isEmbeddedRequest(request)) {
    // Shopify's session token exchange stores the session, and a first
    // launch installs the shop: writes that come with a GET by Shopify's design.
    const { session } = await writeOnRead("shopify install", () => shopify().authenticate.admin(request));
    if (role !== "admin") throw redirect(url.pathname.replace(/^\/staff/, "/admin") + url.search);
    const shop = await writeOnRead("shopify install", () => findOrInstallShop(session.shop));
    return {
      role,
      mode: "embedded",
      shop,
      user: { id: null, name: session.shop, email: shop.adminEmail, role: "admin", permissions: [] },
      host: url.searchParams.get("host"),
    };
  }

  const user = await sessionUserWithShop(request, options.context);
  if (!user || user.shop.uninstalledAt) {
    if (options.api)
      throw json({ error: { code: "unauthenticated", message: "Log in to continue." } }, { status: 401 });
    const back = url.pathname + url.search;
    throw redirect(loginPathWithReturn(roleLoginPath(role), back));
  }
  const userRole = user.role as Role;
  if (userRole === "admin" && role === "staff") {
    throw redirect(url.pathname.replace(/^\/staff/, "/admin") + url.search);
  }
  if (userRole === "staff" && role === "admin") throw forbidden("/staff/dashboard");
  const permissions = parsePermissions(user.permissions);
  if (options.area && !canUseArea(userRole, permissions, options.area)) throw forbidden(`/${userRole}/dashboard`);
  const { shop, ...rest } = user;
  return {
    role,
    mode: "standalone",
    shop,
    user: { id: rest.id, name: rest.name, email: rest.email, role: userRole, permissions },
    host: null,
  };
}

/** For /api/* routes: the merchant whoever they are (admin or staff), or 401. */
export async function requireApiMerchant(request: Request, area?: Area): Promise<MerchantContext> {
  if (isEmbeddedRequest(request)) return requireMerchant(request, "admin", { area, api: true });
  const session = await getMerchantSession(request);
  const userId = session.get("userId");
  const user = userId ? await getDb().user.findUnique({ where: { id: userId }, select: { role: true } }) : null;
  return requireMerchant(request, user?.role ?? "admin", { area, api: true });
}
