import { afterEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { getDb } from "~/db.server";
import { createClickStore, type ClickStore } from "~/db/click-store.server";
import { buildClickRow } from "~/models/tracking/record-click.server";

applyTestEnv();
const database = useTestDatabase();

// The store behind GET /r/{code}: clicks of one event-loop turn are written
// together, as one statement, and each request learns whether its own row
// was committed.
describe("click store", () => {
  let store: ClickStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function affiliate() {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    return buildAffiliate(shop.id, campaign.id, { status: "approved" });
  }

  const row = (a: { id: string; shopId: string }, landingUrl = "https://store.example/") =>
    buildClickRow(
      {
        shopId: a.shopId,
        affiliateId: a.id,
        source: "link",
        landingUrl,
        referrer: null,
        ip: "203.0.113.7",
        userAgent: "Test",
      },
      "secret",
    );

  /** Inserts the rows in one turn; answers each row's outcome. */
  function insertAll(s: ClickStore, rows: ReturnType<typeof row>[]) {
    return Promise.all(
      rows.map((r) => new Promise<string>((resolve) => s.insert(r, (error) => resolve(error ? "failed" : "ok")))),
    );
  }

  it("commits a burst on one link and a turn of different links, every row as built", async () => {
    const a = await affiliate();
    const b = await affiliate();
    store = createClickStore(database.current().url);
    const burst = Array.from({ length: 40 }, () => row(a));
    const mixed = [row(a), row(b, "https://other.example/x?y=1"), row(a, "https://store.example/p")];
    expect(await insertAll(store, burst)).toEqual(burst.map(() => "ok"));
    expect(await insertAll(store, mixed)).toEqual(["ok", "ok", "ok"]);
    for (const r of [...burst, ...mixed]) {
      const stored = await getDb().click.findUniqueOrThrow({ where: { clickId: r.clickId } });
      expect(stored).toMatchObject({
        id: r.id,
        shopId: r.shopId,
        affiliateId: r.affiliateId,
        landingUrl: r.landingUrl,
        referrer: null,
        ipHash: r.ipHash,
        userAgent: "Test",
      });
      expect(stored.createdAt.getTime()).toBe(r.createdAt.getTime());
    }
  });

  it("fails only the row of an affiliate deleted a moment ago, and commits the others of its turn", async () => {
    const a = await affiliate();
    const gone = await affiliate();
    await getDb().affiliate.delete({ where: { id: gone.id } });
    store = createClickStore(database.current().url);
    const rows = [row(a), row(gone), row(a)];
    expect(await insertAll(store, rows)).toEqual(["ok", "failed", "ok"]);
    expect(await getDb().click.count({ where: { clickId: { in: rows.map((r) => r.clickId) } } })).toBe(2);
  });
});
