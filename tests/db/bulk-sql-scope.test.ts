import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { ANY_SHOP, prismaBulk, type BulkSql } from "~/db/bulk-sql.server";
import { dialectOf } from "~/db/dialect";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The bulk SQL layer names the shop(s) a statement may touch: an update or a
// read scoped to one shop leaves another shop's rows alone even when their
// ids are in the list, a list of shops reaches those shops, and ANY_SHOP (the
// worker's batches over ids it claimed) reaches every row it names.
applyTestEnv();
useTestDatabase();

const bulk = (): BulkSql => prismaBulk(getDb(), dialectOf(getDb()));

async function twoShops() {
  const a = await buildShop();
  const b = await buildShop();
  const anna = await buildAffiliate(a.id, (await buildCampaign(a.id)).id, { status: "pending" });
  const ben = await buildAffiliate(b.id, (await buildCampaign(b.id)).id, { status: "pending" });
  return { a, b, anna, ben };
}

const statusOf = async (id: string) => (await getDb().affiliate.findUniqueOrThrow({ where: { id } })).status;

describe("bulk SQL shop scope", () => {
  it("updates only the scoped shop's rows of the ids given", async () => {
    const { a, anna, ben } = await twoShops();
    await bulk().updateIn("Affiliate", { status: "approved" }, { shopId: a.id }, "id", [anna.id, ben.id]);
    expect(await statusOf(anna.id)).toBe("approved");
    expect(await statusOf(ben.id)).toBe("pending");
  });

  it("takes a null in the scope as IS NULL", async () => {
    const { a, anna } = await twoShops();
    const bella = await buildAffiliate(a.id, (await buildCampaign(a.id)).id, { status: "pending" });
    await getDb().affiliate.update({ where: { id: bella.id }, data: { parentId: anna.id } });
    const ids = [anna.id, bella.id];
    await bulk().updateIn("Affiliate", { status: "approved" }, { shopId: a.id, parentId: null }, "id", ids);
    expect([await statusOf(anna.id), await statusOf(bella.id)]).toEqual(["approved", "pending"]);
    const read = await bulk()
      .from("Affiliate")
      .findIn<{ id: string }>(["id"], { shopId: a.id, parentId: null }, "id", ids);
    expect(read.map((r) => r.id)).toEqual([anna.id]);
  });

  it("reads the scoped shop(s) only; ANY_SHOP reads every row named", async () => {
    const { a, b, anna, ben } = await twoShops();
    const ids = [anna.id, ben.id];
    const read = (scope: { shopId: string | readonly string[] | typeof ANY_SHOP }) =>
      bulk()
        .from("Affiliate")
        .findIn<{ id: string }>(["id"], scope, "id", ids)
        .then((rows) => rows.map((r) => r.id).sort());
    expect(await read({ shopId: b.id })).toEqual([ben.id]);
    expect(await read({ shopId: [a.id, b.id] })).toEqual([...ids].sort());
    expect(await read({ shopId: [] })).toEqual([]);
    expect(await read({ shopId: ANY_SHOP })).toEqual([...ids].sort());
  });
});
