import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Contact us with a live chat in a real Chromium. The widget is a local
// stand-in speaking Crisp's loader protocol (window.$crisp commands, the
// "chat:visible" query), served from its own origin by this test: the CSP
// must allow exactly that origin, and the support contact opens the chat
// with the six shop values instead of the e-mail.

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

const STAND_IN = `
(function () {
  var queued = window.$crisp || [];
  var state = { data: {}, email: null, open: false };
  var bubble = document.createElement("div");
  bubble.setAttribute("data-testid", "chat-bubble");
  bubble.textContent = "Chat with us";
  bubble.style.cssText = "position:fixed;right:16px;bottom:16px;padding:12px 16px;border-radius:24px;background:#1972f5;color:#fff;font:14px sans-serif";
  document.body.appendChild(bubble);
  var panel = document.createElement("div");
  panel.setAttribute("data-testid", "chat-panel");
  panel.style.cssText = "display:none;position:fixed;right:16px;bottom:72px;width:280px;padding:12px;background:#fff;border:1px solid #ccc;font:13px sans-serif";
  document.body.appendChild(panel);
  function run(cmd) {
    if (cmd[0] === "set" && cmd[1] === "session:data") cmd[2][0].forEach(function (kv) { state.data[kv[0]] = kv[1]; });
    if (cmd[0] === "set" && cmd[1] === "user:email") state.email = cmd[2][0];
    if (cmd[0] === "do" && cmd[1] === "chat:open") {
      state.open = true;
      panel.style.display = "block";
      panel.textContent = "Hi! " + state.data.store_url;
    }
  }
  queued.forEach(run);
  window.$crisp = { push: run, is: function (what) { return what === "chat:visible"; } };
  window.__chatStandIn = state;
})();
`;

describe.skipIf(skipWithoutChromium(chromiumPath))("Contact us and live chat in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  const widget = http.createServer((req, res) => {
    res.writeHead(req.url === "/l.js" ? 200 : 404, { "content-type": "text/javascript" });
    res.end(req.url === "/l.js" ? STAND_IN : "");
  });
  // Before the app server starts: its configuration names the widget's address.
  beforeAll(async () => {
    await new Promise<void>((resolve) => widget.listen(0, "127.0.0.1", resolve));
    const { port } = widget.address() as AddressInfo;
    applyTestEnv({
      SUPPORT_CHAT_PROVIDER: "crisp",
      SUPPORT_CHAT_ID: "test-site",
      SUPPORT_CHAT_SCRIPT_URL: `http://127.0.0.1:${port}/l.js`,
    });
  });
  afterAll(() => new Promise<void>((resolve) => widget.close(() => resolve())));
  useTestDatabase();
  const server = useTestServer();

  it("opens the chat with the six shop values, allowed by the CSP", async () => {
    const { port } = widget.address() as AddressInfo;
    const shop = await buildShop({ domain: "chat-gear.myshopify.com" });
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    const response = await page.goto("/admin/contact-us");
    const csp = (await response!.allHeaders())["content-security-policy"]!;
    expect(csp).toContain(`script-src 'self' 'nonce-`);
    expect(csp).toMatch(new RegExp(`script-src [^;]*http://127\\.0\\.0\\.1:${port}`));
    expect(csp).not.toContain("crisp.chat");
    await expectPage(page, "/admin/contact-us", "Contact us");
    await waitForHydration(page);
    await page.getByTestId("chat-bubble").waitFor();

    await page.getByRole("button", { name: "E-mail support" }).click();
    await page.getByTestId("chat-panel").getByText(`Hi! ${shop.url}`).waitFor();
    const state = await page.evaluate(
      () => (window as unknown as { __chatStandIn: { data: Record<string, string>; email: string } }).__chatStandIn,
    );
    expect(state.email).toBe(shop.adminEmail);
    expect(state.data).toEqual({
      store_url: shop.url,
      admin_contact: shop.adminEmail,
      app_version: shop.appVersion,
      pricing_plan: "growth",
      store_platform_plan: "",
      created_at: shop.createdAt.toISOString(),
    });
    // Still on the page: the chat opened instead of the e-mail.
    expect(new URL(page.url()).pathname).toBe("/admin/contact-us");
    const mailto = await page.locator("[data-mailto]").getAttribute("data-mailto");
    expect(mailto).toBe(
      `mailto:support@example.com?subject=${encodeURIComponent(`[Affiliate & Referral] Support request - ${shop.url}`)}`,
    );
    await page.screenshot({ path: screenshotPath("contact-us-chat"), fullPage: true });
    expect(errors.all.filter((e) => /Content Security Policy/i.test(e.text))).toEqual([]);
  });
});
