// The responsive HTML frame every notification is sent in: one centred
// column up to 600px that shrinks on a phone, inline styles (mail clients
// drop <style> blocks unevenly), and the unsubscribe line for
// non-transactional e-mail.
//
// Branding: brandingOf() in compose-notification.server.ts reads Settings ›
// Branding (logo, primary and background colour) into `Branding`; the
// defaults below serve a shop that has not set them.

export interface Branding {
  shopName: string;
  logoUrl: string | null;
  accentColor: string;
  backgroundColor: string;
}

export const DEFAULT_BRANDING: Omit<Branding, "shopName"> = {
  logoUrl: null,
  accentColor: "#008060",
  backgroundColor: "#f6f6f7",
};

const esc = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Only a plain colour literal reaches a style attribute. */
const color = (value: string, fallback: string) => (/^#[0-9a-f]{3,8}$/i.test(value) ? value : fallback);

export interface LayoutTexts {
  /** "Unsubscribe from these e-mails", in the recipient's language. */
  unsubscribe: string;
  language: string;
  dir: "ltr" | "rtl";
}

export function wrapInLayout(
  bodyHtml: string,
  subject: string,
  branding: Branding,
  texts: LayoutTexts,
  unsubscribeUrl: string | null,
): string {
  const accent = color(branding.accentColor, DEFAULT_BRANDING.accentColor);
  const background = color(branding.backgroundColor, DEFAULT_BRANDING.backgroundColor);
  const header = branding.logoUrl
    ? `<img src="${esc(branding.logoUrl)}" alt="${esc(branding.shopName)}" style="max-width:200px;max-height:60px;border:0">`
    : `<span style="font-size:20px;font-weight:600;color:${accent}">${esc(branding.shopName)}</span>`;
  const footer = unsubscribeUrl
    ? `<p style="margin:16px 0 0;font-size:12px;color:#6d7175"><a href="${esc(unsubscribeUrl)}" style="color:#6d7175">${esc(texts.unsubscribe)}</a></p>`
    : "";
  return `<!doctype html>
<html lang="${esc(texts.language)}" dir="${texts.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${background}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${background}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;border-top:4px solid ${accent}">
<tr><td style="padding:24px 24px 8px">${header}</td></tr>
<tr><td style="padding:8px 24px 24px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#202223">
${bodyHtml.replace(/<a href=/g, `<a style="color:${accent}" href=`)}
${footer}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}
