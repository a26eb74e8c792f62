import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Issue 29: a merchant saves a ladder (nobody moves), reads the preview of
// the next run with its reasons, lets the nightly run happen, sees it in
// Runs, and undoes it; the affiliate moved by hand since stays where they are.
applyTestEnv();

const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("auto-tier runs in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("previews, runs on the schedule and undoes a run", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const bronze = await buildCampaign(shop.id, { name: "Bronze", status: "active" });
    const silver = await buildCampaign(shop.id, { name: "Silver", status: "active" });
    const gold = await buildCampaign(shop.id, { name: "Gold", status: "active" });
    const ana = await buildAffiliate(shop.id, bronze.id, { email: "ana@aff.example" });
    const ben = await buildAffiliate(shop.id, bronze.id, { email: "ben@aff.example" });
    await getDb().affiliate.update({ where: { id: ana.id }, data: { firstName: "Ana", lastName: "Seller" } });
    await getDb().affiliate.update({ where: { id: ben.id }, data: { firstName: "Ben", lastName: "Busy" } });
    for (const affiliate of [ana, ben])
      for (let i = 0; i < 3; i++)
        await buildOrder(shop.id, { affiliateId: affiliate.id, status: "approved", placedAt: new Date() });
    const campaignOf = async (id: string) => (await getDb().affiliate.findUniqueOrThrow({ where: { id } })).campaignId;

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/settings/autotier");
    await waitForHydration(page);
    await page.getByRole("checkbox", { name: "Move affiliates automatically" }).check();
    for (const [i, campaign, threshold] of [
      [0, "Bronze", null],
      [1, "Silver", "3"],
    ] as const) {
      await page.getByRole("button", { name: "Add tier" }).click();
      await page.getByLabel("Campaign").nth(i).selectOption({ label: campaign });
      if (threshold) await page.getByLabel("Threshold").nth(i).fill(threshold);
    }
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Save successful").waitFor();

    // Saved: nobody moved, the preview says who would and why, the next run is stated.
    await page.locator("#autotier-preview-count", { hasText: "Affiliates who would move: 2" }).waitFor();
    expect(await campaignOf(ana.id)).toBe(bronze.id);
    expect(await page.locator("#autotier-next-run").textContent()).toMatch(/^Next nightly run: /);
    await page
      .getByText("Sales over the affiliate's lifetime: 3, reaching the threshold 3 of tier 2 (Silver).")
      .first()
      .waitFor();
    await page.getByText("No run yet.").waitFor();
    await page.screenshot({ path: screenshotPath("autotier-preview"), fullPage: true });

    // "Apply now" asks first, with the count; cancelling moves nobody.
    await page.getByRole("button", { name: "Apply now" }).click();
    const modal = page.getByRole("dialog");
    await modal.getByText("Affiliates to move: 2.").waitFor();
    await page.screenshot({ path: screenshotPath("autotier-apply-confirm") });
    await modal.getByRole("button", { name: "Cancel" }).click();
    expect(await getDb().tierRun.count()).toBe(0);

    // The night comes: the queued run is due and the worker runs it.
    const job = await getDb().job.findFirstOrThrow({ where: { type: "tier.evaluate", status: "queued" } });
    const lastNight = new Date(Date.now() - 1000);
    await getDb().job.update({
      where: { id: job.id },
      data: { runAt: lastNight, uniqueKey: `tier.evaluate:${shop.id}:${lastNight.toISOString()}` },
    });
    await drainJobs();
    expect(await campaignOf(ana.id)).toBe(silver.id);
    expect(await campaignOf(ben.id)).toBe(silver.id);
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id } })).toBe(2);

    // The merchant moves Ben by hand, then undoes the night's run.
    await getDb().affiliate.update({ where: { id: ben.id }, data: { campaignId: gold.id } });
    await page.reload();
    await waitForHydration(page);
    await page.getByText("Nobody would move in the next run.").waitFor();
    const run = page.getByRole("row", { name: /Nightly/ });
    await run.getByText("Done").waitFor();
    await page.screenshot({ path: screenshotPath("autotier-after-run"), fullPage: true });
    await run.getByRole("button", { name: "Undo" }).click();
    await page.getByRole("dialog").getByText("Affiliates are not e-mailed about the undo.", { exact: false }).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Undo run" }).click();
    await page.getByText("Not moved back: 1").waitFor();
    await page.getByText("Ben Busy: moved to another campaign since the run").waitFor();
    await page
      .getByRole("row", { name: /Nightly/ })
      .getByText("Undone · moved back: 1 of 2")
      .waitFor();
    await page.screenshot({ path: screenshotPath("autotier-undone"), fullPage: true });
    expect(await campaignOf(ana.id)).toBe(bronze.id);
    expect(await campaignOf(ben.id)).toBe(gold.id);
    await drainJobs();
    // No e-mail about the undo.
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id } })).toBe(2);

    // In German, the reasons read in German with German money and numbers.
    await getDb().shop.update({ where: { id: shop.id }, data: { language: "de" } });
    await page.reload();
    await page.getByText("seit Beginn der Partnerschaft", { exact: false }).first().waitFor();
    await page.screenshot({ path: screenshotPath("autotier-undone-de"), fullPage: true });
    expect(errors.all).toEqual([]);
  });
});
