import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { upsertProducts } from "~/models/portal/product-catalogue.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useAppUrlPort, useTestServer } from "../support/test-server";

// Issue 31, item 1 in a real Chromium: the affiliate builds a link to a
// synced product with a sub-id, gets its QR code (SVG and PNG), a visitor
// scans it (the click is a QR click with the sub-id), the store simulator
// sends the order with the click id in the cart attributes, and both the
// merchant's sub-id report and the affiliate's count the sale under the
// sub-id; the sales export carries it. Needs the built app (npm run build).
applyTestEnv();
const port = useAppUrlPort();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer({ port });
const chromiumPath = findChromium();

const SHOP = "sub-ids.myshopify.com";
const PASSWORD = "affiliate password 31";
const MERCHANT = "owner@sub-ids.example";

describe.skipIf(skipWithoutChromium(chromiumPath))("link builder, QR code and sub-id report", () => {
  const browser = useBrowser(chromiumPath);

  it("link builder + QR → a scan with a sub-id → the sale carries it → the sub-id reports count it", async () => {
    sim.reset();
    sim.setAppUrl(server.url(""));
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Sub Gear", url: `https://${SHOP}`, adminEmail: MERCHANT, pricingPlan: "growth" },
    });
    await buildUser(shop.id, { email: MERCHANT });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    await db.campaign.update({ where: { id: campaign.id }, data: { isDefault: true, commissionValue: 1000 } });
    const simProduct = sim.store.shop(SHOP).products[0]!;
    await upsertProducts(shop.id, [
      {
        admin_graphql_api_id: `gid://shopify/Product/${simProduct.id}`,
        title: simProduct.title,
        handle: simProduct.handle,
      },
    ]);
    const affiliate = await buildAffiliate(shop.id, campaign.id, {
      status: "approved",
      email: "mia@aff.example",
      referralCode: "MIASUB",
      password: PASSWORD,
    });

    // 1. The affiliate logs in and builds a link to the product with a sub-id.
    const { context, page, errors } = await browser.newSession(server.url(""));
    await page.goto(`/portal/${SHOP.replace(".myshopify.com", "")}/login`);
    await page.locator('[name="email"]').fill("mia@aff.example");
    await page.locator('[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");
    await page.goto("/account/links");
    // Account pages are rendered on the server only (root.tsx): the builder
    // is a plain GET form, there is no client router to wait for.
    await page.getByLabel("Product").selectOption(simProduct.handle);
    await page.getByLabel("Sub-ID (optional)").fill("ig-story\u200b ");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByTestId("built-link").waitFor();
    const link = await page.getByTestId("built-link").inputValue();
    expect(link).toBe(`${server.url("")}/r/sub-ids/MIASUB?to=%2Fproducts%2F${simProduct.handle}&sub_id=ig-story`);
    await page.getByTestId("qr-image").waitFor();
    expect(await page.getByTestId("qr-image").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("link-builder-qr"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath("link-builder-qr-390"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The QR downloads: an SVG and a PNG of the link with via=qr.
    const svgHref = await page.getByTestId("qr-svg").getAttribute("href");
    const svg = await page.evaluate(async (href) => {
      const res = await fetch(href!);
      return { type: res.headers.get("content-type"), body: await res.text() };
    }, svgHref);
    expect(svg.type).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const pngHref = await page.getByTestId("qr-png").getAttribute("href");
    const png = await page.evaluate(async (href) => {
      const res = await fetch(href!);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { type: res.headers.get("content-type"), head: Array.from(bytes.slice(0, 8)) };
    }, pngHref);
    expect(png.type).toBe("image/png");
    expect(png.head).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // An address off the store is refused on the page, and no QR code is made for it.
    await page.goto(`/account/links?page=${encodeURIComponent("https://evil.example/products/x")}`);
    await page.getByTestId("builder-error").waitFor();
    const offStore = await page.evaluate(
      async () => (await fetch("/account/links/qr?page=https://evil.example/")).status,
    );
    expect(offStore).toBe(404);

    // 2. A visitor scans the QR code (the encoded link is the built one with via=qr).
    const visitor = await context.newPage();
    const storeRequest = visitor.waitForRequest((r) => new URL(r.url()).host === SHOP);
    await visitor.goto(`${link}&via=qr`).catch(() => null);
    const landed = new URL((await storeRequest).url());
    expect(landed.pathname).toBe(`/products/${simProduct.handle}`);
    const clickId = landed.searchParams.get("_aff_click")!;
    const click = await db.click.findUniqueOrThrow({ where: { clickId } });
    expect(click).toMatchObject({ affiliateId: affiliate.id, source: "qr", subId: "ig-story" });
    await visitor.close();
    // And a plain click on the link without a sub-id, which the report leaves out.
    await fetch(link.replace(/&sub_id=[^&]*/, ""), { redirect: "manual" });

    // 3. The buyer checks out: the store simulator sends orders/create with the cart attributes.
    await sim.store.placeOrder(SHOP, { products: [simProduct.handle], referralCode: "MIASUB", clickId });
    await drainJobs();
    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(order).toMatchObject({ affiliateId: affiliate.id, clickId, subId: "ig-story", attributionSource: "link" });
    const commission = await db.commission.findFirstOrThrow({ where: { orderId: order.id } });
    const money = `$${(commission.amount / 100).toFixed(2)}`;

    // 4. The affiliate's sales page counts it by sub-id.
    await page.goto("/account/sales");
    const mine = page.getByTestId("account-sub-ids").getByRole("row").filter({ hasText: "ig-story" });
    await mine.waitFor();
    expect((await mine.locator("td, th").allTextContents()).map((s) => s.trim())).toEqual([
      "ig-story",
      "1",
      "1",
      "1",
      money,
    ]);
    await page.screenshot({ path: screenshotPath("account-sales-sub-ids"), fullPage: true });
    // The one 404 is the off-store QR code asked for above, on purpose.
    expect(errors.unexpected(/status of 404/)).toEqual([]);

    // 5. The merchant's sub-id report and the sales export.
    const admin = await browser.newSession(server.url(""));
    await logIn(admin.page, "admin", MERCHANT);
    // The login's own redirect must land first, or it overtakes the goto below.
    await expectPage(admin.page, "/admin/dashboard", "Dashboard");
    await admin.page.goto("/admin/sales/sub-ids");
    await waitForHydration(admin.page);
    const row = admin.page.getByTestId("sub-id-report").getByRole("row").filter({ hasText: "ig-story" });
    await row.waitFor();
    const cells = (await row.locator("td, th").allTextContents()).map((s) => s.trim());
    expect(cells.slice(0, 4)).toEqual(["ig-story", "1", "1", "1"]);
    expect(cells[5]).toBe(money);
    await admin.page.screenshot({ path: screenshotPath("admin-sub-id-report"), fullPage: true });
    const csv = await admin.page.evaluate(async () => {
      const res = await fetch("/admin/sales/export");
      return { status: res.status, text: await res.text() };
    });
    expect(csv.status).toBe(200);
    const [header, first] = csv.text.trim().split("\n");
    expect(header).toContain("sub_id,sub1,sub2,sub3,sub4,sub5,utm_source");
    const values = first!.split(",");
    expect(values[header!.split(",").indexOf("sub_id")]).toBe("ig-story");
    expect(admin.errors.unexpected()).toEqual([]);
  });
});
