import { randomBytes } from "node:crypto";
import type express from "express";
import helmet from "helmet";
import { getConfig } from "../config.server";
import { chatConfig, chatCspSources, type ChatSources } from "../lib/support-chat";
import { shopifyLib } from "../shopify.server";

// Security headers (docs/decisions/016).
//
// Every response Express serves gets helmet's headers (nosniff, a referrer
// policy, HSTS where the app is served over https...), less the ones that
// would break the app: Cross-Origin-Resource-Policy (the app proxy loads
// the portal's stylesheets from the app's origin) and Cross-Origin-Opener-
// Policy (pop-ups such as PayPal's keep their opener).
//
// What reaches Remix gets a policy of its own:
// - Standalone: a Content-Security-Policy whose scripts are the app's own
//   files and the inline ones carrying this response's nonce (Remix's
//   hydration data, the portal's copy button), and which nobody may frame.
//   Styles allow inline attributes: Polaris sets CSS variables in style
//   attributes throughout, and the charts place labels and tips with them.
// - Embedded (the Shopify admin's iframe, or the bounce and exit pages of
//   shopify-app-remix): only `frame-ancestors`, Shopify's requirement, naming
//   the Shopify admin and, when the request proves it, the shop's own admin.
//   The shop comes from a session token or a launch query that the app's
//   secret verifies, never from the unsigned `shop` parameter (which is what
//   the library's addDocumentResponseHeaders uses). App Bridge loads and
//   talks to Shopify in ways no test here can observe, so no script policy
//   is set there.

export function commonSecurityHeaders(): express.RequestHandler {
  return helmet({
    contentSecurityPolicy: false,
    xFrameOptions: false,
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    // Custom portal domains are merchants' own: never their subdomains too.
    strictTransportSecurity: { maxAge: 180 * 86_400, includeSubDomains: false },
  });
}

const SHOPIFY_ADMIN = "https://admin.shopify.com";
const EMBEDDED_PATHS = new Set(["/auth/session-token", "/auth/exit-iframe"]);

function bearerToken(req: express.Request): string | null {
  const header = req.get("authorization");
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : null;
}

/** Whether the request says it comes from the Shopify admin (anyone can say so). */
function claimsEmbedded(req: express.Request, url: URL): boolean {
  const q = url.searchParams;
  return (
    q.get("embedded") === "1" ||
    q.has("host") ||
    q.has("id_token") ||
    bearerToken(req) !== null ||
    EMBEDDED_PATHS.has(url.pathname)
  );
}

/** The shop a session token or a signed launch query proves, else null. */
export async function verifiedShop(req: express.Request, url: URL): Promise<string | null> {
  const lib = shopifyLib();
  const token = bearerToken(req) ?? url.searchParams.get("id_token");
  if (token) {
    try {
      const payload = await lib.session.decodeSessionToken(token);
      return lib.utils.sanitizeShop(new URL(payload.dest).hostname);
    } catch {
      // Expired, forged or malformed: proves nothing.
    }
  }
  const shop = url.searchParams.get("shop");
  if (shop && url.searchParams.has("hmac")) {
    try {
      const query = Object.fromEntries(url.searchParams);
      if (await lib.utils.validateHmac(query, { signator: "admin" })) return lib.utils.sanitizeShop(shop);
    } catch {
      // A stale timestamp or no HMAC at all.
    }
  }
  return null;
}

/** The origin browsers fetch translation files from, when it is not the app's own. */
function translationsOrigin(): string | null {
  const base = getConfig().TRANSLATIONS_BASE_URL;
  return /^https?:\/\//.test(base) ? new URL(base).origin : null;
}

/** The configured live-chat widget's sources (only that provider's). */
function chatSources(): ChatSources {
  const config = getConfig();
  return chatCspSources(
    chatConfig({
      provider: config.SUPPORT_CHAT_PROVIDER,
      siteId: config.SUPPORT_CHAT_ID,
      scriptUrl: config.SUPPORT_CHAT_SCRIPT_URL,
    }),
  );
}

const extra = (sources: string[]) => (sources.length ? ` ${sources.join(" ")}` : "");

export function standaloneContentSecurityPolicy(nonce: string, appOrigin: string): string {
  const translations = translationsOrigin();
  const chat = chatSources();
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${extra(chat.script)}`,
    // Pages served through the app proxy (on the shop's domain) load their
    // stylesheets from the app's origin.
    `style-src 'self' 'unsafe-inline' ${appOrigin}${extra(chat.style)}`,
    // Product images come from Shopify's CDN, creatives from wherever the
    // merchant keeps them.
    "img-src 'self' data: blob: https:",
    `font-src 'self' data:${extra(chat.font)}`,
    // Translation files may come from a content host (TRANSLATIONS_BASE_URL).
    `connect-src 'self'${translations ? ` ${translations}` : ""}${extra(chat.connect)}`,
    ...(chat.frame.length ? [`frame-src 'self'${extra(chat.frame)}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The per-response nonce, for the load context of Remix (entry.server.tsx). */
export const cspNonce = (res: express.Response): string | undefined => res.locals.cspNonce as string | undefined;

export function documentSecurityHeaders(): express.RequestHandler {
  return (req, res, next) => {
    const url = new URL(`http://localhost${req.originalUrl}`);
    if (!claimsEmbedded(req, url)) {
      const nonce = randomBytes(16).toString("base64");
      res.locals.cspNonce = nonce;
      res.setHeader(
        "Content-Security-Policy",
        standaloneContentSecurityPolicy(nonce, new URL(getConfig().appUrl).origin),
      );
      res.setHeader("X-Frame-Options", "DENY");
      return next();
    }
    verifiedShop(req, url)
      .catch(() => null)
      .then((shop) => {
        res.setHeader("Content-Security-Policy", `frame-ancestors ${shop ? `https://${shop} ` : ""}${SHOPIFY_ADMIN}`);
        next();
      });
  };
}
