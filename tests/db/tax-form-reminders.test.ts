import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { saveTaxSettings } from "~/models/tax-forms/tax-settings.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// The tax-form reminder is composed by a job of its own (tax-forms.remind),
// not inside the pending-payout refresh or the Settings › Tax forms save:
// both hold SQLite's write lock, and a Liquid render under it stalls every
// other writer. The refresh and the save only queue the look; the job reads
// and renders outside any transaction and writes one e-mail per held payout,
// once however often it runs.

applyTestEnv();
useTestDatabase();
useNoRenderUnderWriteLock();

const reminders = (shopId: string) =>
  getDb().outboxEmail.count({ where: { shopId, kind: "affiliate.tax_form_reminder" } });
const remindJobs = (shopId: string) =>
  getDb().job.count({
    where: { type: "tax-forms.remind", status: "queued", uniqueKey: { startsWith: `tax-forms.remind:${shopId}:` } },
  });

async function shopWithHeldPayout(require: "always" | "off") {
  const shop = await buildShop();
  await saveShopSetting(getDb(), shop.id, "taxForms", { require, amount: 0 });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "approved" });
  const order = await buildOrder(shop.id, { affiliateId: affiliate.id });
  await buildCommission(shop.id, order.id, affiliate.id, { amount: 25_000, status: "approved", sourceRef: "s1" });
  return shop;
}

describe("tax-form reminders", () => {
  it("are queued by the payout refresh and written by their own job, once", async () => {
    const shop = await shopWithHeldPayout("always");
    await gatherPendingPayouts(shop.id);
    expect(await getDb().payout.count({ where: { shopId: shop.id, status: "pending" } })).toBe(1);
    // The refresh's transaction composed nothing: it queued the look.
    expect(await reminders(shop.id)).toBe(0);
    expect(await remindJobs(shop.id)).toBe(1);
    // A second refresh before the look runs queues no second one.
    await gatherPendingPayouts(shop.id);
    expect(await remindJobs(shop.id)).toBe(1);

    await drainJobs();
    expect(await reminders(shop.id)).toBe(1);
    // Another refresh looks again and finds the reminder already written.
    await gatherPendingPayouts(shop.id);
    await drainJobs();
    expect(await reminders(shop.id)).toBe(1);
  });

  it("are not looked for while the shop asks for no forms, and saving the settings queues the look", async () => {
    const shop = await shopWithHeldPayout("off");
    await gatherPendingPayouts(shop.id);
    expect(await remindJobs(shop.id)).toBe(0);

    await saveTaxSettings(shopDb(getDb(), shop.id), { require: "always", amount: 0 });
    expect(await reminders(shop.id)).toBe(0);
    expect(await remindJobs(shop.id)).toBe(1);
    await drainJobs();
    expect(await reminders(shop.id)).toBe(1);
  });
});
