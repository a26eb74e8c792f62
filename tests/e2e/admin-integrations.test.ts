import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// A merchant in a real Chromium registers a webhook endpoint in Settings >
// Integrations, copies the secret shown once, sends a test event that a real
// receiver on loopback checks with the Standard Webhooks verifier, finds it
// in the delivery log and redelivers it. The job queue runs between steps
// (drainJobs), as the worker would.

applyTestEnv({ WEBHOOKS_ALLOW_PRIVATE: "1" });

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Settings > Integrations in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it("registers an endpoint, shows the secret once, sends a test event, redelivers it from the log and deletes the endpoint", async () => {
    const shop = await buildShop({ pricingPlan: "pro" });
    await buildUser(shop.id, { email: EMAIL });
    receiver.answer = () => ({ status: 200, body: "thanks" });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");

    await page.goto("/admin/settings/integrations");
    await expectPage(page, "/admin/settings/integrations", "Integrations");
    await waitForHydration(page);
    await page.getByText("No endpoints yet").waitFor();

    // Nothing chosen: the form says so and sends nothing.
    await page.getByLabel("Endpoint URL").fill(receiver.url());
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Choose at least one event").waitFor();
    expect(await getDb().webhookEndpoint.count()).toBe(0);

    await page.getByLabel("Description").fill("Our CRM");
    await page.getByLabel("affiliate.approved").check();
    await page.getByLabel("payout.paid").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Copy the signing secret now").waitFor();
    const secret = await page.locator("[data-webhook-secret] input").inputValue();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = await getDb().webhookEndpoint.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(endpoint.secret).toBe(secret);
    expect(JSON.parse(endpoint.eventTypes)).toEqual(["affiliate.approved", "payout.paid"]);
    await page.getByRole("link", { name: receiver.url() }).waitFor();
    await page.screenshot({ path: screenshotPath("admin-integrations-secret"), fullPage: true });

    // Shown once: a reload of the page does not show it again.
    await page.reload();
    await waitForHydration(page);
    await page.getByRole("link", { name: receiver.url() }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("link", { name: receiver.url() }).click();
    await expectPage(page, `/admin/settings/integrations/${endpoint.id}`, receiver.url());
    await page.getByText("Nothing delivered yet").waitFor();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("Test event queued").waitFor();

    await drainJobs();
    expect(receiver.received).toHaveLength(1);
    const first = receiver.received[0]!;
    const verified = new Webhook(secret).verify(first.body, {
      "webhook-id": String(first.headers["webhook-id"]),
      "webhook-timestamp": String(first.headers["webhook-timestamp"]),
      "webhook-signature": String(first.headers["webhook-signature"]),
    }) as { type: string; data: { endpoint_id: string } };
    expect(verified).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });

    await page.reload();
    await waitForHydration(page);
    const log = page.locator("[data-delivery-log]");
    await log.getByText("Delivered").waitFor();
    await log.getByText("webhook.test").waitFor();
    await log.getByText("Attempts: 1").waitFor();
    await log.getByRole("button", { name: "Details" }).click();
    await log.getByText(/Attempt 1 at .* ms · HTTP 200/).waitFor();
    await log.getByText("thanks").waitFor();
    await log.getByText(`webhook-id: ${String(first.headers["webhook-id"])}`).waitFor();
    await page.screenshot({ path: screenshotPath("admin-integrations-log"), fullPage: true });

    await log.getByRole("button", { name: "Redeliver" }).click();
    await page.getByText("Redelivery queued").waitFor();
    await drainJobs();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(receiver.received[1]!.body).toBe(first.body);
    await page.reload();
    await waitForHydration(page);
    await log.getByText("Attempts: 2").waitFor();

    // Deleting asks once more, then goes back to the list.
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("Deleting the endpoint also deletes its delivery log.").waitFor();
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await expectPage(page, "/admin/settings/integrations", "Integrations");
    await page.getByText("No endpoints yet").waitFor();
    expect(await getDb().webhookEndpoint.count()).toBe(0);
    expect(await getDb().webhookDelivery.count()).toBe(0);

    expect(errors.unexpected()).toEqual([]);
  });
});
