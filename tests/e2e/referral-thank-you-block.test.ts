import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";

// The refer-a-friend block (extensions/referral-thank-you/src/ReferralBlock.tsx)
// in a real Chromium: bundled with esbuild as Shopify CLI bundles it, given
// a stand-in for Shopify's target API (session token, buyer, i18n over the
// extension's own en.default.json), and an app endpoint on loopback that
// answers what the real one does. Shopify draws the s-* components in
// checkout; here a few CSS rules only make the elements visible for the
// screenshot. What is checked is the behaviour: nothing while the order is
// pending, asking again, the link and its copy button, nothing when off.

const chromiumPath = findChromium();
const EXTENSION = path.resolve(__dirname, "../../extensions/referral-thank-you");
const SHARE_URL = "https://friends-shop.example/?invite=abc234defg";

const HARNESS = `
import { render } from "preact";
import { ReferralBlock } from "./src/ReferralBlock";
import en from "./locales/en.default.json";
const lookup = (key) => key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), en);
window.mountBlock = () => {
  const host = {
    appUrl: location.origin,
    facts: () => ({ orderId: "gid://shopify/Order/5001", email: "ana@example.com", firstName: "Ana" }),
    sessionToken: async () => "test-session-token",
    translate: (key, values = {}) => String(lookup(key) ?? key).replace(/\\{\\{(\\w+)\\}\\}/g, (_, n) => String(values[n])),
    formatNumber: (n, o) => new Intl.NumberFormat("en-US", o).format(n),
    formatCurrency: (n, o) => new Intl.NumberFormat("en-US", o).format(n),
  };
  render(<ReferralBlock host={host} />, document.getElementById("block"));
};
`;

const PAGE = (script: string) => `<!doctype html><html><head><meta charset="utf-8"><style>
body { font: 15px system-ui, sans-serif; background: #f4f4f4; margin: 24px; }
#block { max-width: 520px; }
s-section { display: block; background: #fff; border: 1px solid #ddd; border-radius: 10px; padding: 18px; }
s-section::before { content: attr(heading); display: block; font-size: 18px; font-weight: 600; margin-bottom: 8px; }
s-stack { display: grid; gap: 12px; }
s-paragraph, s-text { display: block; }
s-text-field { display: block; border: 1px solid #bbb; border-radius: 6px; padding: 8px; background: #fafafa; }
s-text-field::before { content: attr(label); display: block; font-size: 12px; color: #666; }
s-text-field::after { content: attr(value); font-family: monospace; }
s-button { display: inline-block; justify-self: start; background: #1f5199; color: #fff; border-radius: 6px; padding: 8px 14px; }
</style></head><body><div id="block"></div><script>${script}</script></body></html>`;

let server: Server;
let base = "";
let script = "";
const answers: { status: number; body: unknown }[] = [];
const seen: { authorization?: string; body: unknown }[] = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
  });

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: HARNESS, resolveDir: EXTENSION, loader: "tsx" },
    bundle: true,
    write: false,
    format: "iife",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "silent",
  });
  script = bundle.outputFiles[0]!.text;
  server = createServer(async (req, res) => {
    if (req.method === "POST" && req.url === "/api/checkout/referral-link") {
      seen.push({ authorization: req.headers.authorization, body: JSON.parse(await readBody(req)) });
      const answer = answers.shift() ?? { status: 500, body: {} };
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE(script));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe.skipIf(skipWithoutChromium(chromiumPath))("the refer-a-friend thank-you block in Chromium", () => {
  const browser = useBrowser(chromiumPath);

  it("shows nothing while the order is pending, asks again, then shows the link and copies it", async () => {
    const { page, errors } = await browser.newSession(base);
    seen.length = 0;
    answers.splice(
      0,
      answers.length,
      { status: 200, body: { status: "pending", retryAfterMs: 1000 } },
      {
        status: 200,
        body: {
          status: "ready",
          shareUrl: SHARE_URL,
          friendCode: "ANA-10",
          firstName: "Ana",
          friendOffer: { type: "percentage", value: 1000, currency: "EUR" },
        },
      },
    );
    await page.goto("/");
    await page.evaluate(() => (window as unknown as { mountBlock: () => void }).mountBlock());
    await expect.poll(() => seen.length).toBe(1);
    expect(await page.locator("#block").innerHTML()).toBe("");

    const section = page.locator("s-section");
    await section.waitFor({ timeout: 5000 });
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.authorization).toBe("Bearer test-session-token");
      expect(request.body).toEqual({ orderId: "gid://shopify/Order/5001", email: "ana@example.com", firstName: "Ana" });
    }
    expect(await section.getAttribute("heading")).toBe("Ana, invite your friends");
    await expect
      .poll(() => page.locator("s-paragraph").textContent())
      .toBe("Your friends get 10% off their order with your link.");
    expect(await page.locator("s-text-field").getAttribute("value")).toBe(SHARE_URL);
    expect(await page.locator("s-clipboard-item").getAttribute("text")).toBe(SHARE_URL);
    expect(await page.locator("s-button").textContent()).toBe("Copy link");
    expect(await page.locator("s-text").textContent()).toBe("Or give them your code: ANA-10");
    // Shopify's clipboard item copies and fires `copy`; the button then says so.
    await page.locator("s-clipboard-item").dispatchEvent("copy");
    await expect.poll(() => page.locator("s-button").textContent()).toBe("Link copied");
    await page.screenshot({ path: screenshotPath("referral-thank-you-block"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });

  it("shows nothing at all when the program is off or the app refuses", async () => {
    for (const answer of [
      { status: 200, body: { status: "off" } },
      { status: 401, body: null },
    ]) {
      const { page } = await browser.newSession(base);
      seen.length = 0;
      answers.splice(0, answers.length, answer);
      await page.goto("/");
      await page.evaluate(() => (window as unknown as { mountBlock: () => void }).mountBlock());
      await expect.poll(() => seen.length).toBe(1);
      await page.waitForTimeout(300);
      expect(await page.locator("#block").innerHTML()).toBe("");
    }
  });
});
