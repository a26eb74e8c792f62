import { matchAcceptLanguage } from "../i18n/choose-language";
import { fixedT } from "../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO, LANGUAGES } from "../i18n/language-table";

// The pages a visitor sees when a referral link cannot send them to a store:
// its shop is unknown (or the code is, and the link names no shop), or the
// lookup failed. Small standalone HTML (no app bundle), in the visitor's
// language as far as it ships, rendered once per language and kept.

export type LinkPageKind = "not_found" | "unavailable";

const KEYS: Record<LinkPageKind, { title: string; heading: string; body: string }> = {
  not_found: { title: "linkNotFound.title", heading: "linkNotFound.heading", body: "linkNotFound.body" },
  unavailable: { title: "error.title", heading: "error.title", body: "genericMessage" },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const rendered = new Map<string, string>();

/** The page's HTML for a visitor with this Accept-Language header. */
export async function linkPage(kind: LinkPageKind, acceptLanguage: string | null): Promise<string> {
  const language = matchAcceptLanguage(acceptLanguage?.slice(0, 200), LANGUAGES) ?? DEFAULT_LANGUAGE_INFO;
  const locale = language.tag;
  const key = `${kind}:${locale}`;
  const hit = rendered.get(key);
  if (hit) return hit;
  const t = fixedT(language, ["Global"]);
  const k = KEYS[kind];
  const title = escapeHtml(t(k.title));
  const html =
    `<!DOCTYPE html><html lang="${escapeHtml(locale)}" dir="${language.dir}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${title}</title><style>body{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;` +
    `background:#f1f1f1;color:#303030;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}` +
    `main{background:#fff;border-radius:12px;padding:32px;max-width:420px;margin:16px;box-shadow:0 1px 3px rgba(0,0,0,.15)}` +
    `h1{font-size:20px;margin:0 0 12px}p{margin:0;line-height:1.5}</style></head>` +
    `<body><main><h1>${escapeHtml(t(k.heading))}</h1><p>${escapeHtml(t(k.body))}</p></main></body></html>`;
  if (rendered.size > 200) rendered.clear();
  rendered.set(key, html);
  return html;
}
