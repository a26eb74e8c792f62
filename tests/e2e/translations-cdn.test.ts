import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage, logIn, menuLink } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// TRANSLATIONS_BASE_URL (spec section 7: files from a content host): the
// browser loads the namespaces a screen needs later from that host, one file
// per language and namespace, and the page's Content-Security-Policy lets it.
// The host here is a plain file server on another port with CORS, as a CDN
// in front of public/locales would be.
applyTestEnv();
const chromiumPath = findChromium();
const LOCALES = path.resolve(__dirname, "../../public/locales");
const requested: string[] = [];
let cdn: http.Server | undefined;

beforeAll(async () => {
  cdn = http.createServer((req, res) => {
    requested.push(req.url ?? "");
    const match = /^\/l10n\/([A-Za-z-]+)\/([A-Za-z.]+\.json)$/.exec(req.url ?? "");
    try {
      if (!match) throw new Error("not a translation file");
      const body = readFileSync(path.join(LOCALES, match[1]!, match[2]!));
      res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
      res.end(body);
    } catch {
      res.writeHead(404, { "access-control-allow-origin": "*" });
      res.end();
    }
  });
  await new Promise<void>((resolve) => cdn!.listen(0, "127.0.0.1", resolve));
  process.env.TRANSLATIONS_BASE_URL = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/l10n`;
  const { resetConfigForTests } = await import("~/config.server");
  resetConfigForTests();
});
afterAll(async () => {
  delete process.env.TRANSLATIONS_BASE_URL;
  await new Promise<void>((resolve) => (cdn ? cdn.close(() => resolve()) : resolve()));
});

describe.skipIf(skipWithoutChromium(chromiumPath))("translations from a content host", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("loads a later screen's namespaces from TRANSLATIONS_BASE_URL, in the shop's language", async () => {
    const shop = await buildShop({ language: "de" });
    await buildUser(shop.id, { email: "owner@cdn.example" });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", "owner@cdn.example");
    await expectPage(page, "/admin/dashboard", "Dashboard");
    const base = await page.evaluate(
      () => (JSON.parse(document.getElementById("i18n-data")!.textContent!) as { baseUrl: string }).baseUrl,
    );
    expect(base).toBe(process.env.TRANSLATIONS_BASE_URL);
    const csp = (await page.request.get(server.url("/admin/dashboard"))).headers()["content-security-policy"];
    expect(csp).toContain(`connect-src 'self' ${new URL(base).origin}`);

    requested.length = 0;
    await menuLink(page, "Verkäufe").click();
    await expectPage(page, "/admin/sales", "Verkäufe");
    expect(requested).toContain("/l10n/de/Sales.json");
    expect(requested.every((url) => url.startsWith("/l10n/de/"))).toBe(true);
    expect(errors.unexpected()).toEqual([]);
  });
});
