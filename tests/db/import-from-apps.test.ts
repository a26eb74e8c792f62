import { readFileSync } from "node:fs";
import path from "node:path";
import { API_SECRET_KEY, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { affiliateImportStatus, startAffiliateImport } from "~/models/affiliates/csv-import.server";
import type { ImportFormat } from "~/models/affiliates/app-import-formats";
import { readLanding } from "~/models/tracking/storefront-logic";
import { drainJobs } from "~/worker/job-registry.server";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Switching from another app (ADR 048): its affiliate export imports as a
// job, each affiliate keeps their old link code, and a link handed out by
// the old app (?sca_ref=) still credits them: the storefront reads the
// parameter, the app proxy records the click, and the order the store
// simulator sends back as a signed orders/create webhook is credited.
applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const SHOP = "wire-shop.myshopify.com";
const fixture = (name: string) => readFileSync(path.join(__dirname, "../fixtures/imports", name), "utf8");

async function shopWithCampaign() {
  const shop = await getDb().shop.create({
    data: { domain: SHOP, name: "Wire", url: `https://${SHOP}`, adminEmail: "o@wire.example", pricingPlan: "growth" },
  });
  await getDb().campaign.create({
    data: {
      shopId: shop.id,
      name: "Main",
      status: "active",
      isDefault: true,
      commissionType: "percent",
      commissionValue: 1000,
    },
  });
  return { shop, db: shopDb(getDb(), shop.id) };
}

async function importFile(db: ReturnType<typeof shopDb>, format: ImportFormat, text: string) {
  const started = await startAffiliateImport(db, text, { format });
  if (!started.ok) throw new Error(`refused: ${JSON.stringify(started.errors)}`);
  await drainJobs();
  return affiliateImportStatus(db, started.importId);
}

async function signedProxyUrl(query: Record<string, string>) {
  const url = new URL(server.url("/proxy/click"));
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const signed = await setUpValidRequest(
    { type: RequestType.Public, store: SHOP.replace(/\.myshopify\.com$/, ""), apiSecretKey: API_SECRET_KEY },
    new Request(url),
  );
  return signed.url;
}

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

describe("importing another app's affiliates", () => {
  it("imports 500 UpPromote affiliates with their codes, and an old ?sca_ref= link credits the right one", async () => {
    const { shop, db } = await shopWithCampaign();
    const done = await importFile(db, "uppromote", fixture("uppromote-affiliates-500.csv"));
    expect(done).toMatchObject({ status: "done", format: "uppromote", total: 500, processed: 500, imported: 500 });
    expect(done.refused).toBe(0);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(500);
    expect(await getDb().referralAlias.count({ where: { shopId: shop.id, source: "uppromote" } })).toBe(500);
    expect(await getDb().coupon.count({ where: { shopId: shop.id } })).toBe(250);

    // Row 43 of the file (the 42nd affiliate): an active affiliate and their old link.
    const line = fixture("uppromote-affiliates-500.csv").trim().split("\n")[42]!;
    const cells = line.split(",");
    const email = cells[3]!;
    const link = new URL(cells[6]!);
    const affiliate = await getDb().affiliate.findFirstOrThrow({
      where: { shopId: shop.id, email },
      include: { referralAliases: true, coupons: true },
    });
    expect(affiliate.status).toBe("approved");
    expect(affiliate.referralAliases.map((a) => a.code)).toEqual([
      link.searchParams.get("sca_ref")!.replace(".", "-").toUpperCase(),
    ]);
    expect(affiliate.referralCode).not.toBe(affiliate.referralAliases[0]!.code);

    // The visitor lands on the old link: the storefront script reads ?sca_ref= and asks the app proxy for a click.
    const landing = readLanding(link.search, "ref");
    expect(landing?.code).toBe(affiliate.referralAliases[0]!.code);
    const res = await fetch(await signedProxyUrl({ code: landing!.code, landing: link.toString() }));
    expect(res.status).toBe(200);
    const { click_id: clickId } = (await res.json()) as { click_id: string | null };
    expect(clickId).toBeTruthy();
    expect(await getDb().click.findUniqueOrThrow({ where: { clickId: clickId! } })).toMatchObject({
      affiliateId: affiliate.id,
      source: "proxy",
    });

    // The order carries the cart attributes the script wrote; the store sends it back signed.
    const placed = await sim.store.placeOrder(SHOP, {
      items: 1,
      referralCode: landing!.code,
      clickId: clickId!,
      landingSite: `/${link.search}`,
    });
    expect(placed.deliveries.find((d) => d.topic === "orders/create")?.status).toBe(200);
    // Without the click (a cookie from before the switch has only the code), the alias alone credits too.
    await sim.store.placeOrder(SHOP, { items: 1, referralCode: landing!.code });
    await drainJobs();
    const orders = await getDb().order.findMany({ where: { shopId: shop.id }, orderBy: { name: "asc" } });
    expect(orders.map((o) => o.affiliateId)).toEqual([affiliate.id, affiliate.id]);
    expect(orders[0]!.clickId).toBe(clickId);
    expect(await getDb().commission.count({ where: { affiliateId: affiliate.id } })).toBe(2);
    // 500 rows, and 250 coupon pushes to the store: slow on a shared machine.
  }, 180_000);

  it("reads GoAffPro, Refersion and Shopify Collabs files; merges by e-mail and keeps the old code as an alias", async () => {
    const { shop, db } = await shopWithCampaign();
    const existing = await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: (await getDb().campaign.findFirstOrThrow({ where: { shopId: shop.id } })).id,
        email: "gil@example.com",
        firstName: "Gil",
        lastName: "",
        status: "approved",
        referralCode: "GIL",
      },
    });

    const goaffpro = await importFile(db, "goaffpro", fixture("goaffpro-affiliates.csv"));
    expect(goaffpro).toMatchObject({ imported: 2, merged: 0, refused: 1 });
    expect(goaffpro.report).toEqual([expect.objectContaining({ row: 4, outcome: "refused", column: "email" })]);
    const dee = await getDb().affiliate.findFirstOrThrow({
      where: { shopId: shop.id, email: "dee@example.com" },
      include: { coupons: true },
    });
    expect(dee).toMatchObject({ referralCode: "DEE15", status: "approved", firstName: "Dee", lastName: "Park" });
    expect(dee.coupons.map((c) => c.code)).toEqual(["DEE15OFF"]);
    expect(
      await getDb().affiliate.findFirst({ where: { shopId: shop.id, referralCode: "EVE_7", status: "inactive" } }),
    ).not.toBeNull();

    const refersion = await importFile(db, "refersion", fixture("refersion-affiliates.csv"));
    expect(refersion).toMatchObject({ imported: 1, merged: 1, refused: 0 });
    // Gil exists: merged, last name filled, and the old ?rfsn= code now credits Gil too.
    expect(refersion.report.map((r) => [r.row, r.outcome, r.column])).toEqual([
      [3, "merged", "email"],
      [3, "merged", "referral_code"],
    ]);
    expect(refersion.report[1]!.message).toContain("aliasKept");
    expect(
      await getDb().referralAlias.findMany({ where: { shopId: shop.id }, select: { code: true, affiliateId: true } }),
    ).toEqual(expect.arrayContaining([{ code: "123457-DEF456", affiliateId: existing.id }]));
    expect(await getDb().affiliate.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({
      lastName: "Ortiz",
      referralCode: "GIL",
    });

    const collabs = await importFile(db, "collabs", fixture("collabs-creators.csv"));
    expect(collabs).toMatchObject({ imported: 2, refused: 0 });
    const gus = await getDb().affiliate.findFirstOrThrow({
      where: { shopId: shop.id, email: "gus@example.com" },
      include: { coupons: true },
    });
    expect(gus.referralCode).toBe("GUS20");
    expect(gus.coupons.map((c) => c.code)).toEqual(["GUS20"]);

    // The same GoAffPro file again: every affiliate merges, and an alias owned by someone else is refused.
    const again = await importFile(db, "goaffpro", fixture("goaffpro-affiliates.csv"));
    expect(again).toMatchObject({ imported: 0, merged: 2, refused: 1 });
  });

  it("refuses a file without the format's required columns, naming them", async () => {
    const { db } = await shopWithCampaign();
    const started = await startAffiliateImport(db, "Coupon,Status\nX1,Active\n", { format: "refersion" });
    expect(started).toEqual({
      ok: false,
      errors: [
        { row: 1, column: "email address", message: "This column is required" },
        { row: 1, column: "first name", message: "This column is required" },
      ],
    });
  });
});
