import { describe, expect, it } from "vitest";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Save confirmations inside the Shopify admin are the admin's own toast: App
// Bridge's `shopify.toast.show`. The page is the real one in Chromium; only
// App Bridge's global is stood in for (as Shopify's script defines it), and
// every message it is handed is recorded. Without it (standalone) the same
// save shows Polaris's toast (tests/e2e/settings-promote-link.test.ts).

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@toast.example";

declare global {
  interface Window {
    __toasts?: [string, unknown][];
  }
}

describe.skipIf(skipWithoutChromium(chromiumPath))("save confirmations under App Bridge", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("go to shopify.toast.show, once per save, and no Polaris toast is drawn", async () => {
    const shop = await buildShop({ domain: "toast-shop.myshopify.com" });
    await buildUser(shop.id, { email: EMAIL });
    const { page } = await browser.newSession(server.url(""));
    await page.addInitScript(() => {
      const toasts: [string, unknown][] = [];
      window.__toasts = toasts;
      (window as unknown as { shopify: unknown }).shopify = {
        toast: { show: (message: string, options: unknown) => (toasts.push([message, options]), "toast-1") },
      };
    });
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/settings/promote-link");
    await expectPage(page, "/admin/settings/promote-link", "Promote link");
    await waitForHydration(page);
    const save = page.getByRole("button", { name: "Save" }).first();
    const utm = page.getByLabel("utm_source", { exact: true });
    const toasts = () => page.evaluate(() => window.__toasts ?? []);

    await utm.fill("first");
    await save.click();
    await page.waitForFunction(() => (window.__toasts ?? []).length === 1);
    expect(await toasts()).toEqual([["Save successful", { isError: false }]]);
    expect(await page.locator(".Polaris-Frame-Toast").count()).toBe(0);

    // The next save is confirmed again (the admin owns the first toast).
    await utm.fill("second");
    await save.click();
    await page.waitForFunction(() => (window.__toasts ?? []).length === 2);
    expect((await toasts()).map(([message]) => message)).toEqual(["Save successful", "Save successful"]);
    expect(await page.locator(".Polaris-Frame-Toast").count()).toBe(0);
  });
});
