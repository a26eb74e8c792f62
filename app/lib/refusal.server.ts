import type { IncomingMessage, ServerResponse } from "node:http";
import type { TFunction } from "i18next";
import { matchAcceptLanguage } from "../i18n/choose-language";
import { fixedT } from "../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO, LANGUAGES } from "../i18n/language-table";
import { ERROR_STATUS } from "./errors";

// A request refused before any route ran (a body over its limit, a form from
// another site, a Shopify login path without a shop): a 4xx with a message
// the client can act on, as the app's JSON error body for API and data
// requests and as a small HTML page for a browser. The HTML page needs no
// script or stylesheet, so it works wherever it is served.

export type Refusal =
  | { kind: "payloadTooLarge"; limit: string }
  | { kind: "crossSite" }
  | { kind: "openFromAdmin" }
  | { kind: "badShop" }
  | { kind: "badRedirect" };

type T = TFunction;

/** Status, code and words of each refusal (literal keys, so the translation check sees them). */
function describe(refusal: Refusal, t: T) {
  switch (refusal.kind) {
    case "payloadTooLarge":
      return {
        code: "payload_too_large" as const,
        title: t("refusal.payloadTooLargeTitle"),
        message: t("refusal.payloadTooLarge", { limit: refusal.limit }),
      };
    case "crossSite":
      return { code: "forbidden" as const, title: t("refusal.crossSiteTitle"), message: t("refusal.crossSite") };
    case "openFromAdmin":
      return {
        code: "bad_request" as const,
        title: t("refusal.openFromAdminTitle"),
        message: t("refusal.openFromAdmin"),
        link: { href: "/login", label: t("refusal.logIn") },
      };
    case "badShop":
      return { code: "bad_request" as const, title: t("refusal.badRequestTitle"), message: t("refusal.badShop") };
    case "badRedirect":
      return { code: "bad_request" as const, title: t("refusal.badRequestTitle"), message: t("refusal.badRedirect") };
  }
}

interface Rendered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function wantsHtml(accept: string | undefined, url: URL): boolean {
  if (url.pathname.startsWith("/api/") || url.searchParams.has("_data")) return false;
  return /text\/html/i.test(accept ?? "");
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

async function render(
  refusal: Refusal,
  client: { url: URL; accept?: string; acceptLanguage?: string },
): Promise<Rendered> {
  // No shop is known this early: the browser's language, among every language with Global.
  const language = matchAcceptLanguage(client.acceptLanguage, LANGUAGES) ?? DEFAULT_LANGUAGE_INFO;
  const t = fixedT(language, ["Global"]);
  const {
    code,
    title: rawTitle,
    message,
    link: rawLink,
  } = {
    link: undefined as { href: string; label: string } | undefined,
    ...describe(refusal, t),
  };
  const status = ERROR_STATUS[code];
  if (!wantsHtml(client.accept, client.url)) {
    return {
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      body: JSON.stringify({ error: { code, message } }),
    };
  }
  const title = escapeHtml(rawTitle);
  const link = rawLink ? `<p><a href="${escapeHtml(rawLink.href)}">${escapeHtml(rawLink.label)}</a></p>` : "";
  const body =
    `<!DOCTYPE html><html lang="${escapeHtml(language.tag)}" dir="${language.dir}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
    `<style>body{font-family:system-ui,sans-serif;margin:0;padding:3rem 1rem;background:#f1f1f1;color:#303030}` +
    `main{max-width:32rem;margin:auto;background:#fff;border-radius:.75rem;padding:1.5rem 2rem}` +
    `h1{font-size:1.25rem}a{color:#005bd3}</style></head>` +
    `<body><main><h1>${title}</h1><p>${escapeHtml(message)}</p>${link}</main></body></html>`;
  return {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
    },
    body,
  };
}

/** The refusal as a Response, for a route (the client's Accept decides the form). */
export async function refusalResponse(request: Request, refusal: Refusal): Promise<Response> {
  const out = await render(refusal, {
    url: new URL(request.url),
    accept: request.headers.get("accept") ?? undefined,
    acceptLanguage: request.headers.get("accept-language") ?? undefined,
  });
  return new Response(out.body, { status: out.status, headers: out.headers });
}

/**
 * Sends the refusal on a Node response, at the server's door. `close` ends
 * the connection after the answer: the unread rest of the body is never read.
 */
export async function sendRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal,
  options: { close?: boolean } = {},
): Promise<void> {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  let out: Rendered;
  try {
    out = await render(refusal, {
      url: new URL(req.url ?? "/", "http://localhost"),
      accept: header("accept"),
      acceptLanguage: header("accept-language"),
    });
  } catch {
    // Unreadable translations must not turn a refusal into a 500.
    out = {
      status: refusal.kind === "payloadTooLarge" ? 413 : refusal.kind === "crossSite" ? 403 : 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "Request refused",
    };
  }
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...out.headers, "content-length": Buffer.byteLength(out.body) };
  if (options.close) headers.connection = "close";
  res.writeHead(out.status, headers);
  res.end(req.method === "HEAD" ? undefined : out.body);
}
