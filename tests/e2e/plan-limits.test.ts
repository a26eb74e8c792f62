import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// After a downgrade in a real Chromium: every campaign and affiliate stays
// readable; the lists say which rows are read-only and why, the read-only
// row's own screen says so and cannot be saved, and a bulk change touching it
// is refused with the reason.

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Plan limits in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("shows over-limit campaigns and affiliates as read-only with the reason", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    await buildUser(shop.id, { email: EMAIL });
    const start = Date.now() - 3_600_000;
    const campaigns: { id: string }[] = [];
    for (const [i, name] of ["Spring", "Summer", "Autumn", "Winter", "Holiday"].entries()) {
      campaigns.push(
        await getDb().campaign.create({
          data: { shopId: shop.id, name, status: "active", isDefault: i === 0, createdAt: new Date(start + i * 1000) },
        }),
      );
    }
    await getDb().affiliate.createMany({
      data: Array.from({ length: 51 }, (_, i) => ({
        shopId: shop.id,
        campaignId: campaigns[0]!.id,
        email: `aff${String(i + 1).padStart(2, "0")}@example.com`,
        firstName: "Aff",
        lastName: String(i + 1),
        referralCode: `AFF${i + 1}`,
        status: "approved",
        createdAt: new Date(start + i * 1000),
      })),
    });
    // The downgrade: Free has 3 campaigns and 50 affiliates.
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    // One draft among the editable ones: the refused bulk change must leave it a draft.
    await getDb().campaign.update({ where: { id: campaigns[1]!.id }, data: { status: "draft" } });

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/campaigns");
    await expectPage(page, "/admin/campaigns", "Campaigns");
    await waitForHydration(page);
    await page.getByText("This store has 5 campaigns; its plan includes 3.", { exact: false }).waitFor();
    await page.getByText("Read-only (2, the newest by creation date): Winter, Holiday.").waitFor();
    expect(await page.getByText("Read-only", { exact: true }).count()).toBe(2);
    await page.screenshot({ path: screenshotPath("plan-limits-campaigns"), fullPage: true });

    await page.getByRole("link", { name: "Holiday" }).first().click();
    await page.waitForURL((url) => url.pathname === `/admin/campaigns/${campaigns[4]!.id}`);
    await page.getByText("Read-only on your plan").waitFor();
    await page.getByText("This campaign was created beyond your plan's campaign limit.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Save" }).first().isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath("plan-limits-campaign-read-only"), fullPage: true });

    // A bulk change that includes a read-only campaign: refused with the reason, nothing changed.
    await page.goto("/admin/campaigns");
    await waitForHydration(page);
    await page.getByRole("checkbox", { name: "Select all" }).first().check({ force: true });
    await page.getByRole("button", { name: "Set as active (published)" }).first().click();
    await page.getByText("Read-only campaigns chosen (2)", { exact: false }).waitFor();
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: campaigns[1]!.id } })).status).toBe("draft");

    await page.goto("/admin/affiliates");
    await waitForHydration(page);
    await page.getByText("Read-only (1, the newest by creation date): aff51@example.com.").waitFor();
    await page.screenshot({ path: screenshotPath("plan-limits-affiliates"), fullPage: true });
    const newest = await getDb().affiliate.findFirstOrThrow({ where: { email: "aff51@example.com" } });
    await page.goto(`/admin/affiliates/${newest.id}`);
    await page.getByText("This affiliate was added beyond your plan's affiliate limit.", { exact: false }).waitFor();
    // The affiliate stays readable.
    await page.getByText("aff51@example.com").first().waitFor();
    expect(await page.getByRole("button", { name: "Deactivate" }).isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath("plan-limits-affiliate-read-only"), fullPage: true });
    // The refused bulk change logs its 403 in the console; nothing else may fail.
    expect(errors.unexpected(/status of 403 \(Forbidden\)/)).toEqual([]);
  });
});
