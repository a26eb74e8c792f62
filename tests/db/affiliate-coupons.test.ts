import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { loadAffiliateDetail } from "~/models/affiliates/affiliate-detail.server";
import { patchAffiliate } from "~/models/affiliates/affiliate-writes.server";
import { queueCouponPush } from "~/models/marketings/push-typed-coupons.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Settings > Marketings' automatic coupons: approving an affiliate records
// the event in the approval's transaction; after the commit a job creates the
// discount code in Shopify (the store simulator) per the campaign's coupon
// settings and records it as the affiliate's coupon, once.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

const SHOP = "coupon-shop.myshopify.com";
const discountCreates = () =>
  sim.graphqlRequests().filter((r) => r.outcome?.operation === "mutation DiscountCodeBasicCreate");

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

async function setup(coupon: Record<string, unknown>) {
  const shop = await buildShop({ domain: SHOP });
  await getDb().session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      accessToken: sim.accessToken(SHOP),
      scope: "write_discounts",
    },
  });
  const campaign = await buildCampaign(shop.id);
  await getDb().campaign.update({ where: { id: campaign.id }, data: coupon });
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "pending", referralCode: "ANNA7" });
  return { shop, campaign, affiliate };
}

describe("automatic affiliate coupons", () => {
  it("creates the campaign's discount code in Shopify when an affiliate is approved, once", async () => {
    const { shop, affiliate } = await setup({
      couponEnabled: true,
      couponPrefix: "spring-",
      couponDiscountType: "percentage",
      couponDiscountValue: 1500,
    });
    await drainJobs();
    expect(discountCreates()).toHaveLength(0);

    const result = await setAffiliatesStatus(shopDb(getDb(), shop.id), [affiliate.id], "approve");
    expect(result.changed).toBe(1);
    await drainJobs();

    const codes = sim.store.shop(SHOP).discounts.flatMap((d) => d.codes.map((c) => c.code));
    expect(codes).toContain("SPRING-ANNA7");
    const discount = sim.store.shop(SHOP).discounts.find((d) => d.codes.some((c) => c.code === "SPRING-ANNA7"))!;
    expect(discount.value).toMatchObject({ percentage: 0.15 });
    expect(discount.appliesOncePerCustomer).toBe(true);
    for (const r of discountCreates()) expect(r.outcome).toMatchObject({ validated: true, errors: [] });
    expect(await getDb().coupon.findMany({ where: { affiliateId: affiliate.id }, select: { code: true } })).toEqual([
      { code: "SPRING-ANNA7" },
    ]);

    // Approving again (deactivate, then approve) does not create a second code.
    await getDb().affiliate.update({ where: { id: affiliate.id }, data: { status: "pending" } });
    await setAffiliatesStatus(shopDb(getDb(), shop.id), [affiliate.id], "approve");
    await drainJobs();
    expect(discountCreates()).toHaveLength(1);
  });

  it("records a code Shopify already has instead of creating it twice, and does nothing when coupons are off", async () => {
    const { shop, affiliate } = await setup({
      couponEnabled: true,
      couponDiscountType: "fixed_amount",
      couponDiscountValue: 500,
    });
    const { createAffiliateCoupon } = await import("~/models/marketings/affiliate-coupon.server");
    await getDb().affiliate.update({ where: { id: affiliate.id }, data: { status: "approved" } });
    expect(await createAffiliateCoupon({ affiliateId: affiliate.id }, getDb())).toBe("created");
    // The earlier attempt died before recording the coupon: the retry finds the code in Shopify.
    await getDb().coupon.deleteMany({ where: { affiliateId: affiliate.id } });
    expect(await createAffiliateCoupon({ affiliateId: affiliate.id }, getDb())).toBe("created");
    expect(discountCreates()).toHaveLength(1);
    expect(await getDb().coupon.count({ where: { affiliateId: affiliate.id } })).toBe(1);
    const discount = sim.store.shop(SHOP).discounts.find((d) => d.codes.some((c) => c.code === "ANNA7"))!;
    expect(discount.value).toMatchObject({ type: "amount", amount: "5.00" });

    const campaign2 = await buildCampaign(shop.id);
    const other = await buildAffiliate(shop.id, campaign2.id, { status: "pending", referralCode: "BOB1" });
    await setAffiliatesStatus(shopDb(getDb(), shop.id), [other.id], "approve");
    await drainJobs();
    expect(discountCreates()).toHaveLength(1);
    expect(await getDb().coupon.count({ where: { affiliateId: other.id } })).toBe(0);
  });

  it("creates coupon codes typed for an affiliate in Shopify after the commit, once; a refusal is shown and retried", async () => {
    const { shop, campaign, affiliate } = await setup({
      couponEnabled: false,
      couponDiscountType: "fixed_amount",
      couponDiscountValue: 0,
    });
    const db = shopDb(getDb(), shop.id);
    const type = (codes: string[]) =>
      getDb().$transaction((tx) => patchAffiliate(tx, shop.id, affiliate.id, { coupon_codes: codes }));
    const stored = () =>
      getDb().coupon.findMany({
        where: { affiliateId: affiliate.id },
        orderBy: { code: "asc" },
        select: { code: true, shopifyStatus: true, shopifyError: true },
      });

    // $0.00 off is no discount: Shopify refuses it, and the page says why.
    await type(["ANNA-SUMMER"]);
    expect(await stored()).toEqual([{ code: "ANNA-SUMMER", shopifyStatus: "pending", shopifyError: null }]);
    await drainJobs();
    expect(await stored()).toEqual([
      { code: "ANNA-SUMMER", shopifyStatus: "failed", shopifyError: "Value must be greater than 0" },
    ]);
    const detail = await loadAffiliateDetail(db, affiliate.id, { withSales: false });
    expect(detail.affiliate.couponIssues).toEqual([
      { code: "ANNA-SUMMER", state: "failed", error: "Value must be greater than 0" },
    ]);
    const job = await getDb().job.findFirstOrThrow({ where: { type: "coupons.push" } });
    expect(job).toMatchObject({ status: "queued", attempts: 1 });

    // The merchant sets a discount; the retry creates the code.
    await getDb().campaign.update({ where: { id: campaign.id }, data: { couponDiscountValue: 500 } });
    await getDb().job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    await drainJobs();
    expect(await stored()).toEqual([{ code: "ANNA-SUMMER", shopifyStatus: "created", shopifyError: null }]);
    const discount = sim.store.shop(SHOP).discounts.find((d) => d.codes.some((c) => c.code === "ANNA-SUMMER"))!;
    expect(discount.value).toMatchObject({ type: "amount", amount: "5.00" });
    expect((await loadAffiliateDetail(db, affiliate.id, { withSales: false })).affiliate.couponIssues).toEqual([]);

    // Saving the page again with one more code creates only the new one.
    await type(["ANNA-SUMMER", "ANNA-WINTER"]);
    await drainJobs();
    expect((await stored()).map((c) => [c.code, c.shopifyStatus])).toEqual([
      ["ANNA-SUMMER", "created"],
      ["ANNA-WINTER", "created"],
    ]);
    const discounts = () =>
      sim.store
        .shop(SHOP)
        .discounts.flatMap((d) => d.codes.map((c) => c.code))
        .filter((code) => code.startsWith("ANNA-"))
        .sort();
    expect(discounts()).toEqual(["ANNA-SUMMER", "ANNA-WINTER"]);
    for (const r of discountCreates()) expect(r.outcome).toMatchObject({ validated: true });

    // A code Shopify already has (made by hand in the admin, or by an attempt that died) is not created again.
    await getDb().coupon.updateMany({ where: { code: "ANNA-WINTER" }, data: { shopifyStatus: "pending" } });
    await getDb().$transaction((tx) => queueCouponPush(tx, affiliate.id));
    await drainJobs();
    expect(discounts()).toEqual(["ANNA-SUMMER", "ANNA-WINTER"]);
    expect(discountCreates()).toHaveLength(3); // the refused one, then one each
    expect((await stored()).every((c) => c.shopifyStatus === "created")).toBe(true);
  });
});
