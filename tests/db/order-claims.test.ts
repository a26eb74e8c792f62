import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { AppError } from "~/lib/errors";
import { claimFormSchema, claimTerms, type ClaimTerms } from "~/models/claims/claim-input";
import { fileClaim } from "~/models/claims/file-claim.server";
import { decideClaim } from "~/models/claims/decide-claim.server";
import { getClaim, listClaims } from "~/models/claims/claim-admin.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// Claims of missing orders on a real database: filing (found or not, one
// open claim per affiliate and order, the cap), the merchant's decision as a
// compare-and-set (two approvals: one wins, the other changes nothing and
// sends nothing), decline, refusals, and scoping to the shop.

applyTestEnv();
useTestDatabase();

const SHOP = { timezone: "UTC", currency: "USD" };
let shop: Awaited<ReturnType<typeof buildShop>>;
let ana: Awaited<ReturnType<typeof buildAffiliate>>;
let bo: Awaited<ReturnType<typeof buildAffiliate>>;

beforeEach(async () => {
  shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  ana = await buildAffiliate(shop.id, campaign.id, { status: "approved", referralCode: "ANA" });
  bo = await buildAffiliate(shop.id, campaign.id, { status: "approved", referralCode: "BO" });
});

async function missingOrder(over: Partial<{ affiliateId: string; refundedAmount: number }> = {}) {
  const order = await buildOrder(shop.id, { name: "#1042", subtotal: 10_000, total: 11_000, ...over });
  return getDb().order.update({
    where: { id: order.id },
    data: {
      customerEmail: "buyer@example.com",
      lines: JSON.stringify([{ id: "1", productGid: null, quantity: 1, amount: 10_000 }]),
      placedAt: new Date("2026-11-20T10:00:00Z"),
    },
  });
}

const byNumber: ClaimTerms = { method: "number", orderNumber: "#1042", email: "buyer@example.com", message: "" };
const db = () => shopDb(getDb(), shop.id);
const code = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe("filing a claim", () => {
  it("finds the order by number and e-mail, or by date and total, and queues the merchant's e-mail", async () => {
    const order = await missingOrder();
    const claim = await fileClaim(db(), SHOP, ana.id, byNumber);
    expect(claim).toMatchObject({ status: "open", orderId: order.id });
    const byDate = await fileClaim(db(), SHOP, bo.id, {
      method: "date",
      day: "2026-11-20",
      amount: 11_000,
      message: "",
    });
    expect(byDate.orderId).toBe(order.id);
    await drainJobs();
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id, kind: "merchant.claim_filed" } })).toBe(2);
    // The customer's e-mail is not kept with the claim.
    expect(JSON.stringify(await getDb().orderClaim.findMany())).not.toContain("buyer@example.com");
  });

  it("files a claim that matches nothing without saying so, refuses a second open one for the same order", async () => {
    await missingOrder();
    const none = await fileClaim(db(), SHOP, ana.id, { ...byNumber, email: "other@example.com" });
    expect(none.orderId).toBeNull();
    await fileClaim(db(), SHOP, ana.id, byNumber);
    expect(await code(fileClaim(db(), SHOP, ana.id, byNumber))).toBe("conflict");
    expect(await getDb().orderClaim.count({ where: { affiliateId: ana.id } })).toBe(2);
  });

  it("refuses an order already theirs, and caps open claims", async () => {
    await missingOrder({ affiliateId: ana.id });
    expect(await code(fileClaim(db(), SHOP, ana.id, byNumber))).toBe("conflict");
    for (let i = 0; i < 10; i++) await fileClaim(db(), SHOP, bo.id, { ...byNumber, orderNumber: `#9${i}` });
    expect(await code(fileClaim(db(), SHOP, bo.id, { ...byNumber, orderNumber: "#999" }))).toBe("rate_limited");
    expect(await getDb().orderClaim.count({ where: { affiliateId: bo.id } })).toBe(10);
  });

  it("refuses bad input field by field", () => {
    expect(claimFormSchema.safeParse({}).success).toBe(false);
    expect(claimFormSchema.safeParse({ orderNumber: "#1042", email: "nope" }).success).toBe(false);
    expect(claimFormSchema.safeParse({ day: "2026-02-30", amount: "5" }).success).toBe(false);
    const form = claimFormSchema.parse({ day: "2026-11-20", amount: "-5" });
    expect(claimTerms(form, 2)).toMatchObject({ ok: false, field: "amount" });
    expect(claimTerms(claimFormSchema.parse({ day: "2026-11-20", amount: "110,00" }), 2)).toMatchObject({
      ok: true,
      terms: { amount: 11_000 },
    });
  });
});

describe("deciding a claim", () => {
  it("approves once: the order is credited with the claimed reason; a second approval is a 409 that changes nothing", async () => {
    const order = await missingOrder();
    const claim = await fileClaim(db(), SHOP, ana.id, byNumber);
    const results = await Promise.all([
      code(decideClaim(db(), claim.id, { intent: "approve" }, "Mia Owner")),
      code(decideClaim(db(), claim.id, { intent: "approve" }, "Sam Staff")),
    ]);
    expect(results.sort()).toEqual(["conflict", "ok"]);
    const credited = await getDb().order.findUniqueOrThrow({ where: { id: order.id }, include: { commissions: true } });
    expect(credited).toMatchObject({
      affiliateId: ana.id,
      attributionSource: "claim",
      attributionReasonKey: "Sales:attributionReason.claimed",
    });
    expect(JSON.parse(credited.attributionReasonValues)).toMatchObject({ code: "ANA" });
    expect(credited.commissions).toHaveLength(1);
    expect(credited.commissions[0]).toMatchObject({ affiliateId: ana.id, amount: 1_000, kind: "sale" });
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "claim.decided" } })).toBe(1);
    await drainJobs();
    expect(await getDb().outboxEmail.count({ where: { kind: "affiliate.claim_decided" } })).toBe(1);
    expect(await getDb().orderClaim.findUniqueOrThrow({ where: { id: claim.id } })).toMatchObject({
      status: "approved",
      openKey: null,
    });
  });

  it("declines with a note, and the affiliate may claim the order again", async () => {
    const order = await missingOrder();
    const claim = await fileClaim(db(), SHOP, ana.id, byNumber);
    await decideClaim(db(), claim.id, { intent: "decline", note: "Not our customer" }, "Mia Owner");
    expect(await code(decideClaim(db(), claim.id, { intent: "approve" }, "Mia Owner"))).toBe("conflict");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).affiliateId).toBeNull();
    expect(await getDb().commission.count({ where: { orderId: order.id } })).toBe(0);
    await drainJobs();
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "affiliate.claim_decided" } });
    expect(mail.text).toContain("declined");
    expect(mail.text).toContain("Not our customer");
    expect((await fileClaim(db(), SHOP, ana.id, byNumber)).status).toBe("open");
  });

  it("refuses to re-credit an order credited to another affiliate, and changes nothing", async () => {
    const order = await missingOrder({ affiliateId: bo.id });
    const claim = await fileClaim(db(), SHOP, ana.id, byNumber);
    expect((await getClaim(db(), claim.id)).canApprove).toBe(false);
    expect(await code(decideClaim(db(), claim.id, { intent: "approve" }, "Mia Owner"))).toBe("conflict");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).affiliateId).toBe(bo.id);
    expect((await getDb().orderClaim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe("open");
  });

  it("is scoped to the shop: another shop's client finds no claim and cannot decide it", async () => {
    await missingOrder();
    const claim = await fileClaim(db(), SHOP, ana.id, byNumber);
    const other = await buildShop();
    const otherDb = shopDb(getDb(), other.id);
    expect(await code(getClaim(otherDb, claim.id))).toBe("not_found");
    expect(await code(decideClaim(otherDb, claim.id, { intent: "approve" }, "Eve"))).toBe("not_found");
    expect((await listClaims(otherDb, "open")).data).toEqual([]);
    // Filing from another shop does not find this shop's order.
    const eve = await buildAffiliate(other.id, (await buildCampaign(other.id)).id, { status: "approved" });
    expect((await fileClaim(otherDb, SHOP, eve.id, byNumber)).orderId).toBeNull();
  });
});
