import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import {
  expectPage,
  logIn,
  menuLabels,
  menuLink,
  waitForHydration,
  waitForTableLoaded,
  ERROR_SCREEN,
} from "../support/admin-browser";
import { buildOrder } from "../support/api-builders";
import { buildAffiliate, buildShop, buildUser } from "../support/builders";
import {
  failedResource,
  findChromium,
  screenshotPath,
  skipWithoutChromium,
  useBrowser,
  type BrowserSession,
} from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { savedDownload } from "../support/download";

// A merchant in a real Chromium: approves a pending affiliate from the list,
// edits one on its page (contextual save bar), invites a staff member without
// the sales permission, who sets a password through the invite link, logs in,
// has no Sales menu item and is refused the sales page and its actions.

applyTestEnv();

const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("affiliates and staff in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();
  const newSession = (): Promise<BrowserSession> => browser.newSession(server.url(""));

  it("approves a pending affiliate from the list, and edits one with the save bar", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await getDb().campaign.create({
      data: { shopId: shop.id, name: "Main", status: "active", isDefault: true },
    });
    const pending = await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: "pat@example.com",
        firstName: "Pat",
        lastName: "Pending",
        referralCode: "PATP",
        status: "pending",
      },
    });
    await buildAffiliate(shop.id, campaign.id, { email: "olly@example.com", status: "approved" });
    const { page, errors } = await newSession();

    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    await menuLink(page, "Affiliates").click();
    await expectPage(page, "/admin/affiliates", "Affiliates");

    await page.getByRole("tab", { name: "Pending" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "pending");
    const row = page.getByRole("row", { name: /Pat Pending/ });
    await row.waitFor();
    // The URL changes before the filtered list arrives: wait for the approved affiliate to leave it.
    await page.getByRole("row", { name: /olly@example\.com/ }).waitFor({ state: "detached" });
    await waitForTableLoaded(page);
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("1 approved, 0 skipped").waitFor();
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("approved");
    // The Pending tab reloads without them.
    await row.waitFor({ state: "detached" });
    await page.getByText("No affiliates match").waitFor();
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    await page.screenshot({ path: screenshotPath("admin-affiliates-approved"), fullPage: true });

    // The export of the Pending tab downloads a CSV of what the filter shows.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^affiliates-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(readFileSync(await savedDownload(download), "utf8").trim()).toBe(
      "id,created_at,email,first_name,last_name,status,campaign,referral_code,coupon_codes,upline",
    );

    await page.getByRole("tab", { name: "All" }).click();
    await page.getByRole("link", { name: "Pat Pending" }).click();
    await expectPage(page, `/admin/affiliates/${pending.id}`, "Pat Pending");
    await waitForHydration(page);
    await page.getByLabel("Referral code", { exact: true }).fill("PAT-NEW");
    await page.getByLabel("Coupon codes", { exact: true }).fill("PAT10, PAT20");
    const save = page.getByRole("button", { name: "Save", exact: true });
    await save.waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliate-detail-unsaved"), fullPage: true });
    await save.click();
    await page.getByText("Save successful").waitFor();
    const saved = await getDb().affiliate.findUniqueOrThrow({ where: { id: pending.id }, include: { coupons: true } });
    expect(saved.referralCode).toBe("PAT-NEW");
    expect(saved.coupons.map((c) => c.code).sort()).toEqual(["PAT10", "PAT20"]);
    await save.waitFor({ state: "detached" });

    expect(errors.unexpected()).toEqual([]);
  });

  it("adds an affiliate by hand, and imports a CSV in a job: progress bar, then the report of imported, merged and refused rows", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    await getDb().campaign.create({ data: { shopId: shop.id, name: "Main", status: "active", isDefault: true } });
    const { page, errors } = await newSession();
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/affiliates");
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await waitForHydration(page);

    await page.getByText("No affiliates yet").waitFor();
    await page.getByRole("button", { name: "Add affiliate" }).first().click();
    const add = page.getByRole("dialog", { name: "Add an affiliate" });
    await add.getByLabel("First name", { exact: true }).fill("Nina");
    await add.getByLabel("Email", { exact: true }).fill("not-an-email");
    await add.getByRole("button", { name: "Add affiliate", exact: true }).click();
    await add.getByText("Enter a valid e-mail address").waitFor();
    await add.getByLabel("Email", { exact: true }).fill("nina@example.com");
    await add.getByRole("button", { name: "Add affiliate", exact: true }).click();
    const nina = await (async () => {
      await page.waitForURL((url) => /^\/admin\/affiliates\/[^/]+$/.test(url.pathname), { waitUntil: "commit" });
      return getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "nina@example.com" } });
    })();
    await expectPage(page, `/admin/affiliates/${nina.id}`, "Nina");
    expect(nina.referralCode).toBe("NINA");

    await page.getByRole("link", { name: "Affiliates" }).first().click();
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await page.getByRole("button", { name: "Import CSV", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Import affiliates from CSV" });
    const csv =
      "email,first_name,last_name,upline\nok@example.com,Ok,,NINA\nnina@example.com,Dup,Filled,\nbad,Bad,,NOBODY\n";
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "affiliates.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    // No worker runs beside the test server: the job waits, and the dialog shows its progress.
    await dialog.getByText("Importing: 0 of 3 rows").waitFor();
    await dialog.getByRole("progressbar").waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliates-import-progress"), fullPage: true });
    await drainJobs();
    await dialog.getByText("Imported: 1 · Merged: 1 · Refused: 1").waitFor();
    await dialog.getByRole("cell", { name: "nina@example.com exists already: filled last_name" }).waitFor();
    await dialog.getByRole("cell", { name: "Enter a valid e-mail address" }).waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliates-import-report"), fullPage: true });
    const imported = await getDb().affiliate.findMany({ where: { shopId: shop.id }, include: { parent: true } });
    expect(imported.map((a) => [a.email, a.lastName, a.parent?.email ?? null]).sort()).toEqual([
      ["nina@example.com", "Filled", null],
      ["ok@example.com", "", "nina@example.com"],
    ]);

    // The add form's refused e-mail (a 422) is logged by Chrome as a failed resource.
    expect(errors.unexpected(failedResource(422))).toEqual([]);
  });

  it("invites staff without sales; they set a password by the link, see no Sales item, and are refused sales", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const order = await buildOrder(shop.id, { name: "#SECRET-9191", status: "pending" });
    const admin = await newSession();

    await logIn(admin.page, "admin", ADMIN_EMAIL);
    await expectPage(admin.page, "/admin/dashboard", "Dashboard");
    await waitForHydration(admin.page);
    await menuLink(admin.page, "Settings").click();
    await expectPage(admin.page, "/admin/settings", "Settings");
    // A ResourceList item: its title is what one clicks.
    await admin.page.getByRole("heading", { name: "Staff", exact: true }).click();
    await expectPage(admin.page, "/admin/settings/staff", "Staff");
    await admin.page.getByRole("button", { name: "Invite staff", exact: true }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Invite a staff member" });
    await dialog.getByLabel("Email", { exact: true }).fill("sam@example.com");
    await dialog.getByLabel("Name", { exact: true }).fill("Sam Staff");
    await dialog.getByLabel("Campaigns", { exact: true }).check();
    await dialog.getByLabel("Affiliates", { exact: true }).check();
    await dialog.getByRole("button", { name: "Create invite link", exact: true }).click();
    const linkField = admin.page.locator('input[name="invite_link"]');
    await linkField.waitFor();
    const inviteUrl = new URL(await linkField.inputValue());
    expect(inviteUrl.pathname).toBe("/staff/get-password");
    await admin.page.getByRole("cell", { name: "Campaigns, Affiliates" }).waitFor();
    await admin.page.screenshot({ path: screenshotPath("admin-staff-invited"), fullPage: true });
    expect(admin.errors.unexpected()).toEqual([]);

    const staff = await newSession();
    await staff.page.goto(inviteUrl.pathname + inviteUrl.search);
    await waitForHydration(staff.page);
    await staff.page.getByLabel("New password", { exact: true }).fill("a strong staff password");
    await staff.page.getByLabel("Confirm password", { exact: true }).fill("a strong staff password");
    await staff.page.getByRole("button", { name: "Set password and log in", exact: true }).click();
    await expectPage(staff.page, "/staff/dashboard", "Dashboard");
    expect(await menuLabels(staff.page)).toEqual(["Dashboard", "Campaigns", "Affiliates", "Contact us"]);
    await expect(menuLink(staff.page, "Sales").count()).resolves.toBe(0);
    await staff.page.screenshot({ path: screenshotPath("staff-dashboard-no-sales"), fullPage: true });

    const response = await staff.page.goto("/staff/sales");
    expect(response?.status()).toBe(403);
    await staff.page.getByText("You don't have permission to view this page", { exact: true }).waitFor();
    await expect(staff.page.getByText(ERROR_SCREEN).count()).resolves.toBe(0);
    await staff.page.screenshot({ path: screenshotPath("staff-sales-forbidden"), fullPage: true });

    // The sales actions, posted with the staff member's own session cookie.
    for (const path of ["/staff/sales?index", `/staff/sales/${order.id}`]) {
      const post = await staff.context.request.post(path, { form: { intent: "approve" }, maxRedirects: 0 });
      expect(post.status(), path).toBe(403);
      expect(await post.text(), path).not.toContain("#SECRET-9191");
    }
    expect((await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("pending");
    expect(staff.errors.unexpected(failedResource(403))).toEqual([]);

    // The password they chose is their login from now on.
    const again = await newSession();
    await logIn(again.page, "staff", "sam@example.com", "a strong staff password");
    await expectPage(again.page, "/staff/dashboard", "Dashboard");
    expect(again.errors.unexpected()).toEqual([]);
  });
});
