import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { runAffiliateImport } from "~/models/affiliates/csv-import.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Switching from another app in Chromium (ADR 048): the merchant opens
// "Import from another app", picks the app, uploads its export, follows the
// job's progress bar and reads the report (merged by e-mail, refused with a
// reason, old link codes kept).

applyTestEnv();

const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("importing from another app in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("imports an UpPromote export: progress bar, then imported, merged and refused rows with reasons", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await getDb().campaign.create({
      data: { shopId: shop.id, name: "Main", status: "active", isDefault: true },
    });
    // Already an affiliate here: their row merges, and their UpPromote code becomes an alias.
    const lines = readFileSync(path.join(__dirname, "../fixtures/imports/uppromote-affiliates-500.csv"), "utf8")
      .trim()
      .split("\n");
    const merging = lines[5]!.split(",");
    await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: merging[3]!,
        firstName: merging[1]!,
        lastName: "",
        status: "approved",
        referralCode: "KEEPME",
      },
    });
    const file = [...lines.slice(0, 40), "9999,Nobody,,not-an-email,Active,Default program,,,0,0"].join("\n");

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/affiliates");
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await waitForHydration(page);

    await page.getByRole("button", { name: "Import from another app", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Import affiliates from CSV" });
    const source = dialog.getByLabel("The file comes from");
    expect(await source.inputValue()).toBe("uppromote");
    await dialog.getByText(/Upload the affiliate export of UpPromote as it is/).waitFor();
    await page.screenshot({ path: screenshotPath("admin-import-from-apps-choose"), fullPage: true });
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "uppromote-export.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    // No worker runs beside the test server: the job waits, and the dialog shows its progress.
    await dialog.getByText("Importing: 0 of 40 rows").waitFor();
    const record = await getDb().affiliateImport.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(record.format).toBe("uppromote");

    // The worker takes one chunk and stops (as if it died): the bar moves on.
    await runAffiliateImport(
      getDb(),
      { shopId: shop.id, importId: record.id },
      {
        chunkSize: 20,
        afterChunk: () => {
          throw new Error("worker stopped");
        },
      },
    ).catch(() => undefined);
    await dialog.getByText("Importing: 20 of 40 rows").waitFor();
    await dialog.getByRole("progressbar").waitFor();
    await page.screenshot({ path: screenshotPath("admin-import-from-apps-progress"), fullPage: true });

    // The queued job finishes the rest.
    await drainJobs();
    await dialog.getByText("Imported: 38 · Merged: 1 · Refused: 1").waitFor();
    await dialog.getByRole("cell", { name: `${merging[3]} exists already: filled last_name` }).waitFor();
    const sca = new URL(merging[6]!).searchParams.get("sca_ref")!.replace(".", "-").toUpperCase();
    await dialog.getByRole("cell", { name: `The old link code ${sca} now credits this affiliate too.` }).waitFor();
    await dialog.getByRole("cell", { name: "Enter a valid e-mail address" }).waitFor();
    await page.screenshot({ path: screenshotPath("admin-import-from-apps-report"), fullPage: true });

    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(39);
    expect(await getDb().referralAlias.count({ where: { shopId: shop.id } })).toBe(39);

    // The merged affiliate's page shows their old code, removable after a confirmation.
    const merged = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: merging[3]! } });
    await page.goto(`/admin/affiliates/${merged.id}`);
    await waitForHydration(page);
    const card = page.getByTestId("referral-aliases");
    await page.getByRole("heading", { name: "Codes from your previous app" }).waitFor();
    await card.getByText(sca, { exact: true }).waitFor();
    await card.getByText("UpPromote", { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliate-aliases"), fullPage: true });
    await card.getByRole("button", { name: `Remove the code ${sca}` }).click();
    const confirm = page.getByRole("dialog", { name: `Remove the code ${sca}?` });
    await confirm.getByText(/will no longer credit/).waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliate-aliases-confirm"), fullPage: true });
    // Every toast element that ever shows the confirmation is counted. The
    // toast used to move in the tree when the card's last code went (inside
    // the card, then on its own): when the fetcher settled before the page's
    // new data (CI, once), the toast was mounted twice and two were drawn.
    const removed = `Code ${sca} removed`;
    await page.evaluate((text) => {
      const seen = new Set<Element>();
      Object.assign(window, { toastsSeen: seen });
      new MutationObserver(() => {
        for (const el of document.querySelectorAll(".Polaris-Frame-Toast"))
          if (el.textContent?.includes(text)) seen.add(el);
      }).observe(document.body, { childList: true, subtree: true });
    }, removed);
    await confirm.getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByRole("heading", { name: "Codes from your previous app" }).waitFor({ state: "detached" });
    await page.getByText(removed).waitFor();
    expect(await page.evaluate(() => (window as unknown as { toastsSeen: Set<Element> }).toastsSeen.size)).toBe(1);
    expect(await getDb().referralAlias.count({ where: { affiliateId: merged.id } })).toBe(0);
    expect(await getDb().referralAlias.count({ where: { shopId: shop.id } })).toBe(38);
    expect(errors.unexpected()).toEqual([]);
  }, 150_000);
});
