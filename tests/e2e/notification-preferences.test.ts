import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db.server";
import { preferencesUrl } from "~/models/notifications/mail-preferences";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The parts of the Notifications screen a merchant sets once: the digest
// (daily/weekly/off) and the merchant e-mails they get themselves; the
// digest's editor previews sample figures; an affiliate opts out of one kind
// of e-mail on the preference page their unsubscribe link opens.

applyTestEnv();
const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Digest, my e-mails and the preference page in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("saves the digest choice and the signed-in user's e-mails, previews the digest", async () => {
    const shop = await buildShop();
    const user = await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto(server.url("/admin/mails?tab=mine"));
    await expectPage(page, "/admin/mails", "Notifications");
    await waitForHydration(page);
    await page.getByLabel("Daily", { exact: true }).check({ force: true });
    await page.getByRole("button", { name: "Save" }).first().click();
    await expect
      .poll(async () => (await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings, {
        timeout: 10_000,
      })
      .toContain('"mailDigest":"daily"');
    await page.getByLabel("Daily or weekly digest").check({ force: true });
    await page.getByLabel("New credited sale").check({ force: true });
    await page.getByRole("button", { name: "Save" }).last().click();
    await expect
      .poll(async () => (await getDb().user.findUniqueOrThrow({ where: { id: user.id } })).mailKinds, {
        timeout: 10_000,
      })
      .toBe('["merchant.sale","merchant.digest"]');
    await page.screenshot({ path: screenshotPath("notifications-digest-mine"), fullPage: true });

    await page.goto(server.url("/admin/mails"));
    await waitForHydration(page);
    await page.getByRole("link", { name: "Daily or weekly digest" }).click();
    await expectPage(page, "/admin/mails/merchant.digest", "Daily or weekly digest");
    const preview = page.frameLocator('[data-testid="mail-preview"]');
    await expect.poll(() => preview.locator("body").innerText(), { timeout: 10_000 }).toContain("Clicks: 1,204");
    await page.screenshot({ path: screenshotPath("notifications-digest-editor"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });

  it("lets an affiliate untick one kind on the preference page", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "pia@aff.example" });
    const { appUrl, SESSION_SECRET } = getConfig();
    const link = new URL(preferencesUrl(appUrl, SESSION_SECRET, shop.id, affiliate.email, "affiliate.commission"));
    const { page, errors } = await browser.newSession(server.url(""));
    await page.goto(server.url(`${link.pathname}${link.search}`));
    await waitForHydration(page);
    await expect.poll(() => page.getByText("E-mail preferences").count()).toBeGreaterThan(0);
    await page.getByLabel("Tier change").uncheck({ force: true });
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect
      .poll(() => getDb().mailOptOut.findMany({ where: { shopId: shop.id }, select: { kind: true } }), {
        timeout: 10_000,
      })
      .toEqual([{ kind: "affiliate.tier_changed" }]);
    await expect.poll(() => page.getByText("Save successful").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("mail-preferences"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
