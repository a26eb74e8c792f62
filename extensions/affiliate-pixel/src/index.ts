// Web Pixel: on checkout_completed, tell the app which referral (code and
// click id, from the storefront script's first-party cookie) the checkout
// belongs to. The app stores it by checkout token and matches it to the
// order later. Built by Shopify CLI (`shopify app build`), not by the app's build.
import { register } from "@shopify/web-pixels-extension";

// Same cookie and format as the storefront script
// (app/models/tracking/storefront-logic.ts): "{CODE}.{clickId}".
const REFERRAL_COOKIE = "_aff_ref";
const CODE = /^[A-Z0-9_-]{3,32}$/;
const CLICK_ID = /^[A-Za-z0-9_-]{8,64}$/;

function decodeReferral(raw: unknown): { code: string; clickId: string | null } | null {
  if (typeof raw !== "string") return null;
  const value = raw.trim();
  const dot = value.indexOf(".");
  if (dot === -1) return null;
  const code = value.slice(0, dot);
  const clickId = value.slice(dot + 1);
  if (!CODE.test(code) || (clickId !== "" && !CLICK_ID.test(clickId))) return null;
  return { code, clickId: clickId || null };
}

register(({ analytics, browser, settings, init }) => {
  const endpoint = `${String(settings.app_url ?? "").replace(/\/+$/, "")}/api/pixel/checkout-completed`;

  analytics.subscribe("checkout_completed", async (event) => {
    const checkout = event.data.checkout;
    const token: unknown = checkout.token;
    if (typeof token !== "string" || !token) return;
    const referral = decodeReferral(await browser.cookie.get(REFERRAL_COOKIE));
    // No referral remembered: nothing to attribute, nothing to send.
    if (!referral) return;
    const body = {
      shop: init.data.shop.myshopifyDomain,
      checkout_token: token,
      order_id: checkout.order?.id ?? null,
      click_id: referral.clickId,
      ref: referral.code,
    };
    try {
      // text/plain keeps it a "simple" cross-origin request (no preflight);
      // the endpoint reads the body as JSON either way.
      await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: JSON.stringify(body),
        keepalive: true,
      });
    } catch {
      // The order webhook still carries the cart attributes; nothing to retry here.
    }
  });
});
