import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The generated client's runtime is patched to build the fluent API's field
// map once per model (ADR 066): chaining a relation off a query still works.

applyTestEnv();
useTestDatabase();

describe("Prisma's fluent API on the patched runtime", () => {
  it("follows a relation chained on findUnique, in and out of a transaction", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    const db = getDb();
    const fromClient = await db.affiliate.findUnique({ where: { id: affiliate.id } }).campaign();
    expect(fromClient?.id).toBe(campaign.id);
    const fromTx = await db.$transaction((tx) => tx.affiliate.findUnique({ where: { id: affiliate.id } }).shop());
    expect(fromTx?.id).toBe(shop.id);
  });
});
