import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb, ShopScopeError } from "~/db/shop-db.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The shop-scoped client routes receive: on the real database, whatever a
// query forgets, it reads and writes only its own shop's rows.
applyTestEnv();
useTestDatabase();

async function twoShops() {
  const mine = await buildShop();
  const theirs = await buildShop();
  const myCampaign = await buildCampaign(mine.id, { name: "Mine" });
  const theirCampaign = await buildCampaign(theirs.id, { name: "Theirs" });
  const myAffiliate = await buildAffiliate(mine.id, myCampaign.id);
  const theirAffiliate = await buildAffiliate(theirs.id, theirCampaign.id);
  return { mine, theirs, myCampaign, theirCampaign, myAffiliate, theirAffiliate, db: shopDb(getDb(), mine.id) };
}

describe("shop-scoped client", () => {
  it("reads only the shop's rows, even when a query names no shop or another one", async () => {
    const { db, mine, theirs, myAffiliate, theirAffiliate } = await twoShops();
    expect((await db.affiliate.findMany()).map((a) => a.id)).toEqual([myAffiliate.id]);
    expect(await db.affiliate.count()).toBe(1);
    expect(await db.affiliate.findUnique({ where: { id: theirAffiliate.id } })).toBeNull();
    expect(await db.affiliate.findFirst({ where: { shopId: theirs.id } })).toBeNull();
    expect(await db.campaign.findMany({ where: { name: "Theirs" } })).toEqual([]);
    expect((await db.shop.findMany()).map((s) => s.id)).toEqual([mine.id]);
    expect(db.$shopId).toBe(mine.id);
  });

  it("scopes a model owned through a relation (campaign levels) by its owner's shop", async () => {
    const { db, myCampaign, theirCampaign } = await twoShops();
    await getDb().campaignLevel.create({ data: { campaignId: myCampaign.id, level: 2, basis: "sale", rate: 500 } });
    await getDb().campaignLevel.create({ data: { campaignId: theirCampaign.id, level: 2, basis: "sale", rate: 500 } });
    expect((await db.campaignLevel.findMany()).map((l) => l.campaignId)).toEqual([myCampaign.id]);
    expect((await db.campaignLevel.deleteMany({})).count).toBe(1);
    expect(await getDb().campaignLevel.count({ where: { campaignId: theirCampaign.id } })).toBe(1);
  });

  it("changes nothing of another shop when a write names its row by bare id", async () => {
    const { db, theirAffiliate } = await twoShops();
    await expect(
      db.affiliate.update({ where: { id: theirAffiliate.id }, data: { firstName: "Hacked" } }),
    ).rejects.toThrow();
    await expect(db.affiliate.delete({ where: { id: theirAffiliate.id } })).rejects.toThrow();
    expect(
      (await db.affiliate.updateMany({ where: { id: theirAffiliate.id }, data: { status: "denied" } })).count,
    ).toBe(0);
    expect((await db.affiliate.deleteMany({ where: { id: theirAffiliate.id } })).count).toBe(0);
    const row = await getDb().affiliate.findUniqueOrThrow({ where: { id: theirAffiliate.id } });
    expect(row.firstName).toBe("Test");
    expect(row.status).toBe("approved");
  });

  it("writes new rows into the shop, whatever shop the data names", async () => {
    const { db, mine, theirs } = await twoShops();
    const created = await db.campaign.create({ data: { shopId: theirs.id, name: "Planted" } });
    expect(created.shopId).toBe(mine.id);
    await db.campaign.createMany({ data: [{ shopId: theirs.id, name: "Planted 2" }] });
    expect(await getDb().campaign.count({ where: { shopId: theirs.id } })).toBe(1);
  });

  it("refuses to move a row to another shop, to create a child row directly, and models without a shop", async () => {
    const { db, theirs, myAffiliate, myCampaign } = await twoShops();
    await expect(db.affiliate.update({ where: { id: myAffiliate.id }, data: { shopId: theirs.id } })).rejects.toThrow(
      ShopScopeError,
    );
    await expect(
      db.campaignLevel.create({ data: { campaignId: myCampaign.id, level: 2, basis: "sale", rate: 1 } }),
    ).rejects.toThrow(ShopScopeError);
    await expect(db.session.findMany()).rejects.toThrow(ShopScopeError);
    await expect(db.shop.create({ data: { domain: "x.myshopify.com", name: "X" } as never })).rejects.toThrow(
      ShopScopeError,
    );
  });

  it("stays scoped inside its transactions", async () => {
    const { db, myAffiliate, theirAffiliate } = await twoShops();
    const seen = await db.$transaction(async (tx) => {
      await tx.affiliate.updateMany({ data: { firstName: "Renamed" } });
      return tx.affiliate.findMany({ select: { id: true } });
    });
    expect(seen.map((a) => a.id)).toEqual([myAffiliate.id]);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: theirAffiliate.id } })).firstName).toBe("Test");
  });

  it("keeps users and their sessions to the shop (a staff member of another shop is invisible)", async () => {
    const { db, theirs } = await twoShops();
    const other = await buildUser(theirs.id, { role: "staff" });
    expect(await db.user.findUnique({ where: { id: other.id } })).toBeNull();
    expect(await db.userSession.count()).toBe(0);
  });
});
