import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { hashPassword } from "~/models/auth/password.server";
import { savePaymentSettings } from "~/models/payouts/auto-pay.server";
import { paymentSettingsFormSchema } from "~/models/payouts/payment-settings";
import { payoutGiftCardCode } from "~/models/payouts/senders/gift-card.server";
import { SCOPES } from "~/shopify.server";
import { expectPage, logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildCampaign, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useSmtpSink } from "../support/smtp-sink";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A gift card payout end to end (issue 30), in a real Chromium with real job
// workers: the affiliate chooses a gift card among what the merchant offers,
// the merchant pays with "each affiliate's own method", and the worker that
// sends it is killed with SIGKILL at the worst moment: Shopify (the store
// simulator) has issued the card, its answer never reached the worker. A new
// worker finds the card by its code and settles the payout: one card, one
// payment, the code e-mailed to the affiliate and shown on their payouts page.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "gift-pay.myshopify.com";
const HANDLE = "gift-pay";
const ADMIN_EMAIL = "owner@gift-pay.example";
const PASSWORD = "affiliate secret words";
const ROOT = path.resolve(__dirname, "../..");

describe.skipIf(skipWithoutChromium(chromiumPath))("paying in a Shopify gift card in Chromium", () => {
  const received = useSmtpSink().received;
  const sim = useStoreSimulator();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run worker`'s script, as its own process on the test's database. */
  function startWorker() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "gift-card-kill9-"));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ["--import", "tsx", "app/cli/worker.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    return { child, output: () => output };
  }

  async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 60_000) {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function setup() {
    sim.reset();
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Gift Pay", url: `https://${SHOP}`, adminEmail: ADMIN_EMAIL, pricingPlan: "growth" },
    });
    await db.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        accessToken: sim.accessToken(SHOP),
        scope: SCOPES.join(","),
      },
    });
    await savePaymentSettings(
      shopDb(db, shop.id),
      paymentSettingsFormSchema.parse({ affiliateMethods: ["paypal", "gift_card"], defaultMethod: "manual" }),
      "UTC",
    );
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    await db.campaign.update({ where: { id: campaign.id }, data: { isDefault: true } });
    const gia = await db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: "gia@aff.example",
        firstName: "Gia",
        lastName: "Tester",
        status: "approved",
        referralCode: "GIA",
        passwordHash: await hashPassword(PASSWORD),
      },
    });
    const order = await buildOrder(shop.id, { affiliateId: gia.id });
    await buildCommission(shop.id, order.id, gia.id, { amount: 6400, status: "approved", sourceRef: "s1" });
    await gatherPendingPayouts(shop.id);
    return { shop, gia };
  }

  async function portalLogIn(page: Page) {
    await page.goto(`/portal/${HANDLE}/login`);
    await page.locator('[name="email"]').fill("gia@aff.example");
    await page.locator('[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");
  }

  it("the affiliate chooses a gift card; a worker killed after Shopify issued it issues no second one", async () => {
    const { gia } = await setup();
    const db = getDb();

    // The merchant offers gift cards (Settings › Payment).
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/settings/payment");
    await waitForHydration(page);
    const offer = page.getByLabel("A gift card for your shop (its code is e-mailed to the affiliate)");
    await offer.waitFor();
    expect(await offer.isChecked()).toBe(true);
    await page.screenshot({ path: screenshotPath("settings-payment-gift-card"), fullPage: true });

    // The affiliate chooses it.
    const { page: portal, errors: portalErrors } = await browser.newSession(server.url(""));
    await portalLogIn(portal);
    await portal.goto("/account/payouts");
    await portal.locator('label[for="method-gift_card"]').click();
    await portal.getByText("Paid as a gift card for the store; its code is e-mailed to you.").waitFor();
    await portal.locator('[name="current"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Save" }).click();
    await portal.waitForURL("**/account/payouts?saved=1");
    expect(await portal.getByLabel("Gift card").isChecked()).toBe(true);
    await portal.screenshot({ path: screenshotPath("account-payout-method-gift-card"), fullPage: true });

    // The merchant pays each affiliate by their own method.
    await page.goto("/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    const row = page.getByRole("row", { name: /Gia Tester/ });
    await row.waitFor();
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Pay the selected payouts" });
    expect(await dialog.getByLabel("Payment method").inputValue()).toBe("choice");
    await page.screenshot({ path: screenshotPath("payouts-pay-gift-card"), fullPage: true });
    await dialog.getByRole("button", { name: "Pay $64.00" }).click();
    await page.getByText("The payouts are on their way.").last().waitFor();
    const payout = await db.payout.findFirstOrThrow({ where: { affiliateId: gia.id } });
    expect(payout).toMatchObject({ status: "processing", method: "gift_card" });

    // Shopify issues the card; its answer never comes back; the worker dies.
    sim.store.holdAnswerOf(SHOP, "mutation GiftCardCreate");
    const first = startWorker();
    await waitFor("Shopify to issue the card", () => (sim.store.shop(SHOP).giftCards ?? []).length === 1).catch(
      (error) => {
        throw new Error(`${(error as Error).message}\n${first.output()}`);
      },
    );
    first.child.kill("SIGKILL");
    await waitFor("the worker to die", () => first.child.exitCode !== null || first.child.signalCode !== null);
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(await db.payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({
      status: "processing",
      giftCardCode: payoutGiftCardCode(payout.id),
    });
    // The dead worker's lease would run out after a minute; end it now (what the queue does then).
    const job = await db.job.findFirstOrThrow({ where: { type: "payouts.send-batch" } });
    expect(job.status).not.toBe("done");
    await db.job.update({ where: { id: job.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });

    const second = startWorker();
    await waitFor(
      "the payout to be paid",
      async () => (await db.payout.findUniqueOrThrow({ where: { id: payout.id } })).status === "paid",
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n${second.output()}`);
    });
    const cards = sim.store.shop(SHOP).giftCards ?? [];
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ code: payoutGiftCardCode(payout.id), initialValue: 6400 });
    const creates = sim.graphqlRequests().filter((r) => r.outcome?.operation === "mutation GiftCardCreate");
    expect(creates).toHaveLength(1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({
      reference: `gid://shopify/GiftCard/${cards[0]!.id}`,
    });
    expect(await db.domainEvent.count({ where: { type: "payout.paid" } })).toBe(1);

    // The code reaches the affiliate by e-mail (the worker sends it) ...
    const grouped = payoutGiftCardCode(payout.id).replace(/(.{4})(?=.)/g, "$1 ");
    const mail = () => received.filter((m) => (m.to && "text" in m.to ? m.to.text : "") === "gia@aff.example");
    await waitFor("the e-mail", () => mail().length > 0).catch((error) => {
      throw new Error(`${(error as Error).message}\n${second.output()}`);
    });
    expect(mail()).toHaveLength(1);
    expect(mail()[0]!.text).toContain(`is a gift card for our store, to enter at checkout. Your code: ${grouped}`);
    second.child.kill("SIGTERM");

    // ... and is on their payouts page; the merchant sees only its end.
    await portal.goto("/account/payouts");
    const history = portal.getByRole("row", { name: /\$64\.00/ });
    await history.waitFor();
    expect(await history.textContent()).toMatch(new RegExp(`Gift card.*${grouped}.*Paid`));
    await portal.screenshot({ path: screenshotPath("account-payouts-gift-card"), fullPage: true });
    await page.goto(`/admin/payouts/${payout.id}`);
    await waitForHydration(page);
    await page.getByText(`•••• •••• •••• ${payoutGiftCardCode(payout.id).slice(-4)}`, { exact: true }).waitFor();
    expect(await page.content()).not.toContain(payoutGiftCardCode(payout.id));
    await page.screenshot({ path: screenshotPath("payout-gift-card-merchant"), fullPage: true });

    expect(errors.unexpected()).toEqual([]);
    expect(portalErrors.unexpected()).toEqual([]);
  }, 240_000);
});
