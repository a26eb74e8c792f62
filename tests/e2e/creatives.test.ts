import sharp from "sharp";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useAppUrlPort, useTestServer } from "../support/test-server";
import { savedDownload } from "../support/download";

// Creatives in a real Chromium: the merchant drops an image on the upload
// area (sent with a progress bar, thumbnails made on the server), sets its
// link; the affiliate finds it in their gallery with their own link in the
// embed code, copies the code and downloads the image; the merchant then
// reads the counts. Needs the built app (npm run build).
const dataDir = mkdtempSync(path.join(os.tmpdir(), "creatives-e2e-"));
applyTestEnv({ DATA_DIR: dataDir });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const port = useAppUrlPort();
useTestDatabase();
const server = useTestServer({ port });
const chromiumPath = findChromium();

const PASSWORD = "affiliate password 1";

/** A banner made here: a sunset over two hills. */
function bannerSvg() {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="628">` +
      `<rect width="1200" height="628" fill="#2b6f8e"/><circle cx="880" cy="200" r="90" fill="#ffcf5a"/>` +
      `<polygon points="0,628 0,380 300,220 560,420 820,260 1200,430 1200,628" fill="#1e4d3a"/>` +
      `<polygon points="0,628 0,520 420,400 760,560 1200,480 1200,628" fill="#133325"/></svg>`,
  );
}

describe.skipIf(skipWithoutChromium(chromiumPath))("creatives in Chromium", () => {
  const browser = useBrowser(chromiumPath);

  it("upload an image → the affiliate sees it, copies the embed code, downloads it → the merchant sees the counts", async () => {
    const db = getDb();
    const shop = await db.shop.create({
      data: {
        domain: "creative-gear.myshopify.com",
        name: "Creative Gear",
        url: "https://creative-gear.myshopify.com",
        adminEmail: "owner@creative-gear.example",
        pricingPlan: "growth",
      },
    });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    const admin = await buildUser(shop.id, { email: "admin@creative-gear.example" });
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "ivy@aff.example", referralCode: "IVY" });
    await db.affiliate.update({ where: { id: affiliate.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
    const png = await sharp(bannerSvg()).png().toBuffer();

    // The merchant drops the banner on the upload area.
    const merchant = await browser.newSession(server.url(""));
    await logIn(merchant.page, "admin", admin.email, TEST_PASSWORD);
    await expectPage(merchant.page, "/admin/dashboard", "Dashboard");
    await merchant.page.goto("/admin/creatives");
    await expectPage(merchant.page, "/admin/creatives", "Creatives");
    await waitForHydration(merchant.page);
    await merchant.page.screenshot({ path: screenshotPath("creatives-empty"), fullPage: true });
    await merchant.page
      .locator('input[type="file"]')
      .setInputFiles({ name: "spring-sale.png", mimeType: "image/png", buffer: png });
    await merchant.page.getByTestId("upload-done").waitFor();
    await merchant.page.getByTestId("creative-title").filter({ hasText: "spring sale" }).waitFor();
    await merchant.page.screenshot({ path: screenshotPath("creatives-uploaded"), fullPage: true });

    // It links to a collection of the store.
    await merchant.page.getByTestId("creative-title").filter({ hasText: "spring sale" }).click();
    await merchant.page.waitForURL(/\/admin\/creatives\/[^/]+$/, { waitUntil: "commit" });
    await waitForHydration(merchant.page);
    await merchant.page.getByLabel("Title").fill("Spring sale banner");
    await merchant.page.getByLabel("Category").fill("Banners");
    await merchant.page.getByLabel("Links to").fill("/collections/spring");
    await merchant.page.getByRole("button", { name: "Save" }).click();
    await merchant.page.getByTestId("creative-saved").waitFor();
    await merchant.page.screenshot({ path: screenshotPath("creative-detail"), fullPage: true });
    const creative = await db.creative.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(creative).toMatchObject({ title: "Spring sale banner", destinationPath: "/collections/spring" });

    // The affiliate finds it with their link inside, copies the code and downloads the file.
    const aff = await browser.newSession(server.url(""));
    await aff.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url("") });
    await aff.page.goto("/portal/creative-gear/login");
    await aff.page.locator('[name="email"]').fill("ivy@aff.example");
    await aff.page.locator('[name="password"]').fill(PASSWORD);
    await aff.page.locator('form[method="post"] button[type="submit"]').click();
    await aff.page.waitForURL("**/account");
    await aff.page.goto("/account/creatives");
    const card = aff.page.getByTestId("creative-card").filter({ hasText: "Spring sale banner" });
    await card.waitFor();
    // The thumbnail made on upload is what the gallery shows.
    await expect
      .poll(() => card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(480);
    const embed = await card.getByTestId("embed-code").inputValue();
    expect(embed).toContain(`/r/creative-gear/IVY?to=%2Fcollections%2Fspring`);
    expect(embed).toContain('alt="Spring sale banner" width="1200" height="628"');
    await aff.page.screenshot({ path: screenshotPath("account-creatives"), fullPage: true });
    await card.getByTestId("copy-embed").click();
    await card.getByTestId("copy-embed").filter({ hasText: "Copied" }).waitFor();
    expect(await aff.page.evaluate(() => navigator.clipboard.readText())).toBe(embed);
    const [download] = await Promise.all([
      aff.page.waitForEvent("download"),
      card.getByTestId("creative-download").click(),
    ]);
    expect(download.suggestedFilename()).toBe("spring-sale.png");
    const saved = await savedDownload(download);
    expect((await sharp(saved).metadata()).width).toBe(1200);

    // The merchant sees one download and one embed copy.
    await expect
      .poll(async () => (await db.creativeUse.findMany({ select: { action: true } })).map((u) => u.action).sort())
      .toEqual(["download", "embed"]);
    await merchant.page.goto("/admin/creatives");
    await expectPage(merchant.page, "/admin/creatives", "Creatives");
    expect(await merchant.page.getByTestId("creative-downloads").first().textContent()).toBe("1");
    await merchant.page.goto(`/admin/creatives/${creative.id}`);
    await merchant.page.getByTestId("uses-download").waitFor();
    expect(await merchant.page.getByTestId("uses-download").textContent()).toBe("1");
    expect(await merchant.page.getByTestId("uses-embed").textContent()).toBe("1");
    await merchant.page.screenshot({ path: screenshotPath("creative-counted"), fullPage: true });
    expect(merchant.errors.unexpected()).toEqual([]);
    expect(aff.errors.unexpected()).toEqual([]);
  });
});
