import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { ATTRIBUTION_REASON_KEYS } from "~/models/attribution/attribution-reason";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildOrder } from "../support/api-builders";
import { buildCampaign, buildShop, buildUser } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useSmtpSink } from "../support/smtp-sink";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Claims of missing orders in a real Chromium: the affiliate reads why a sale
// counts, claims an order that was not credited, the merchant approves it on
// the claim screen, the sale appears in the affiliate's list with the
// claimed reason, and both e-mails reach the SMTP sink.

applyTestEnv({ MAIL_FROM: "Affiliates <affiliates@app.example>" });
const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@claims.example";
const PASSWORD = "affiliate secret words";

describe.skipIf(skipWithoutChromium(chromiumPath))("order claims in Chromium", () => {
  const smtp = useSmtpSink();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("the affiliate reads why, claims a missing order, the merchant approves, both are e-mailed", async () => {
    const db = getDb();
    const shop = await buildShop();
    const handle = shop.domain.replace(".myshopify.com", "");
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id);
    const ana = await db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: "ana@aff.example",
        firstName: "Ana",
        lastName: "Tester",
        status: "approved",
        referralCode: "ANA",
        passwordHash: await hashPassword(PASSWORD),
      },
    });
    await buildOrder(shop.id, {
      name: "#1001",
      affiliateId: ana.id,
      attributionSource: "coupon",
      reason: { key: ATTRIBUTION_REASON_KEYS.coupon, values: { who: "Ana Tester (ANA)", code: "ANA10" } },
    });
    const missing = await buildOrder(shop.id, { name: "#1042", subtotal: 20_000, total: 22_000 });
    await db.order.update({
      where: { id: missing.id },
      data: {
        customerEmail: "buyer@example.com",
        lines: JSON.stringify([{ id: "1", productGid: null, quantity: 1, amount: 20_000 }]),
      },
    });

    // The affiliate reads why a sale counts.
    const { page: portal, errors: portalErrors } = await browser.newSession(server.url(""));
    await portal.goto(`/portal/${handle}/login`);
    await portal.locator('[name="email"]').fill("ana@aff.example");
    await portal.locator('[name="password"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Log in" }).click();
    await portal.waitForURL("**/account");
    await portal.goto("/account/sales");
    await portal.getByTestId("sale-why").first().waitFor();
    expect(await portal.getByTestId("sale-why").first().textContent()).toBe("Coupon");
    await portal.getByTestId("sale-link").first().click();
    await portal.waitForURL("**/account/sales/*");
    expect(await portal.locator("#sale-reason").textContent()).toBe(
      "Credited to Ana Tester (ANA): their coupon ANA10 was used at checkout.",
    );
    await portal.screenshot({ path: screenshotPath("claims-account-why"), fullPage: true });

    // Files a claim for the order that was not credited.
    await portal.goto("/account/claims");
    const form = portal.locator("#claim-form");
    await form.locator('[name="orderNumber"]').fill("1042");
    await form.getByRole("button", { name: "Claim this order" }).click();
    await portal.getByText("Fill in this field").first().waitFor();
    await form.locator('[name="orderNumber"]').fill("1042");
    await form.locator('[name="email"]').fill("buyer@example.com");
    await form.getByRole("button", { name: "Claim this order" }).click();
    await portal.waitForURL("**/account/claims?sent=1");
    await portal.getByTestId("claim-sent").waitFor();
    await portal.screenshot({ path: screenshotPath("claims-account-filed"), fullPage: true });
    await drainJobs();

    // The merchant approves it.
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/sales/claims");
    await expectPage(page, "/admin/sales/claims", "Claims");
    await waitForHydration(page);
    await page.getByTestId("claims-table").waitFor();
    await page.screenshot({ path: screenshotPath("claims-admin-list"), fullPage: true });
    await page.getByTestId("claims-table").getByRole("link").first().click();
    await page.waitForURL("**/admin/sales/claims/*");
    await waitForHydration(page);
    await page.locator("#claim-credited-to").waitFor();
    expect(await page.locator("#claim-credited-to").textContent()).toBe("Credited now to no affiliate.");
    await page.screenshot({ path: screenshotPath("claims-admin-claim"), fullPage: true });
    await page.getByRole("button", { name: "Approve and credit" }).click();
    await page.locator("#claim-decision").waitFor();
    await page.screenshot({ path: screenshotPath("claims-admin-approved"), fullPage: true });
    await drainJobs();

    // The sale is now the affiliate's, with the claimed reason.
    await portal.goto("/account/sales");
    const row = portal.getByRole("row", { name: /#1042/ });
    await row.waitFor();
    expect(await row.getByTestId("sale-why").textContent()).toBe("Claim");
    await row.getByTestId("sale-link").click();
    await portal.waitForURL("**/account/sales/*");
    expect(await portal.locator("#sale-reason").textContent()).toMatch(
      /^Credited to Ana Tester \(ANA\): they claimed the order, and .+ approved the claim\.$/,
    );
    await portal.screenshot({ path: screenshotPath("claims-account-credited"), fullPage: true });

    // Both e-mails: the merchant's on filing, the affiliate's on the decision.
    const kinds = (await db.outboxEmail.findMany({ where: { shopId: shop.id } })).map((m) => m.kind);
    expect(kinds).toContain("merchant.claim_filed");
    expect(kinds).toContain("affiliate.claim_decided");
    await smtp.waitFor(2);
    const subjects = smtp.received.map((m) => m.subject);
    expect(subjects).toContain("Order claim from Ana Tester");
    expect(subjects).toContain("Your claim for order #1042");

    expect(errors.unexpected(failedResource(422))).toEqual([]);
    expect(portalErrors.unexpected(failedResource(422))).toEqual([]);
  }, 240_000);
});
