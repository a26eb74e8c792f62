import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useSmtpSink } from "../support/smtp-sink";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A merchant in Chromium edits the "approved" e-mail, sees the live preview
// follow the text, is refused a template that does not parse (with its
// line), saves, sends a test to themself (to a real SMTP server on loopback)
// and finds it in the delivery log, then opens it in the viewer.

applyTestEnv({ MAIL_FROM: "Affiliates <affiliates@app.example>" });
const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Notifications screen in Chromium", () => {
  const smtp = useSmtpSink();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("edits a template, previews it, sends a test and sees it in the delivery log", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto(server.url("/admin/mails"));
    await expectPage(page, "/admin/mails", "Notifications");
    await waitForHydration(page);
    await page.screenshot({ path: screenshotPath("notifications-list"), fullPage: true });
    await page.getByRole("link", { name: "Affiliate approved" }).click();
    await expectPage(page, "/admin/mails/affiliate.approved", "Affiliate approved");
    await waitForHydration(page);

    const preview = page.frameLocator('[data-testid="mail-preview"]');
    await expect.poll(() => preview.locator("body").innerText(), { timeout: 10_000 }).toContain("Jane");

    const body = page.getByLabel("Body");
    await body.fill("Hello {{ affiliate.first_name }},\n\n{% if true %}\nwelcome aboard at {{ shop.name }}!");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText(/Line 3: .*not closed/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // The preview does not keep the last good subject over an empty body: it says there is none, and why.
    await expect
      .poll(() => page.getByText("No preview: the template has errors.", { exact: false }).count(), { timeout: 10_000 })
      .toBe(1);
    await page.screenshot({ path: screenshotPath("notifications-editor-invalid"), fullPage: true });
    expect(await getDb().notificationTemplate.count()).toBe(0);

    await body.fill("Hello {{ affiliate.first_name }},\n\nwelcome aboard at {{ shop.name | upcase }}!");
    await expect
      .poll(() => preview.locator("body").innerText(), { timeout: 10_000 })
      .toContain(`welcome aboard at ${shop.name.toUpperCase()}!`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => getDb().notificationTemplate.count(), { timeout: 10_000 }).toBe(1);

    await page.getByRole("button", { name: "Send a test to me" }).click();
    await expect.poll(() => getDb().outboxEmail.count(), { timeout: 10_000 }).toBe(1);
    await drainJobs();
    const [mail] = await smtp.waitFor(1);
    // The merchant's own shop, not a sample one.
    expect(mail?.text).toContain(`welcome aboard at ${shop.name.toUpperCase()}!`);
    expect(mail?.to && "text" in mail.to ? mail.to.text : "").toBe(ADMIN_EMAIL);

    await page.reload();
    await waitForHydration(page);
    const log = page.locator("table").last();
    await expect.poll(() => log.innerText(), { timeout: 10_000 }).toContain("Sent");
    expect(await log.innerText()).toContain(ADMIN_EMAIL);
    await page.screenshot({ path: screenshotPath("notifications-editor"), fullPage: true });

    await page.goto(server.url("/admin/mails?tab=log"));
    await waitForHydration(page);
    await page.getByRole("link", { name: /Welcome to the/ }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toMatch(/^\/admin\/mails\/log\//);
    await expect.poll(() => page.getByText("Text version").count()).toBe(1);
    await page.screenshot({ path: screenshotPath("notifications-email"), fullPage: true });
    // The refused save and preview of the broken template answer 422.
    expect(errors.unexpected(failedResource(422))).toEqual([]);
  });
});
