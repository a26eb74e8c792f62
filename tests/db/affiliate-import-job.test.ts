import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { affiliateImportStatus, runAffiliateImport, startAffiliateImport } from "~/models/affiliates/csv-import.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The affiliates CSV import job: chunks that commit alone with their
// progress, a report of keyed reasons, a rerun that imports no row twice,
// and one shop's import never touching another's affiliates.
applyTestEnv();
useTestDatabase();

async function shopWithCampaign() {
  const shop = await buildShop();
  const campaign = await getDb().campaign.create({
    data: { shopId: shop.id, name: "Main", status: "active", isDefault: true },
  });
  return { shop, campaign, db: shopDb(getDb(), shop.id) };
}

const fileOf = (count: number, prefix = "a") =>
  ["email,first_name,last_name", ...Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com,N${i},`)].join(
    "\n",
  );

describe("affiliates.import job", () => {
  it("shows progress between chunks, and a rerun after a crash resumes without importing a row twice", async () => {
    const { shop, db } = await shopWithCampaign();
    const started = await startAffiliateImport(db, fileOf(250));
    if (!started.ok) throw new Error("the file was refused");
    expect(await affiliateImportStatus(db, started.importId)).toMatchObject({
      status: "queued",
      processed: 0,
      total: 250,
    });

    // The worker dies after its first chunk committed.
    const seen: number[] = [];
    await expect(
      runAffiliateImport(
        getDb(),
        { shopId: shop.id, importId: started.importId },
        {
          chunkSize: 100,
          afterChunk: async () => {
            seen.push((await affiliateImportStatus(db, started.importId)).processed);
            throw new Error("worker died");
          },
        },
      ),
    ).rejects.toThrow("worker died");
    expect(seen).toEqual([100]);
    expect(await affiliateImportStatus(db, started.importId)).toMatchObject({
      status: "running",
      processed: 100,
      imported: 100,
    });
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(100);

    // Two runs at once (the retry and a stray duplicate): each chunk is committed by one of them only.
    const results = await Promise.allSettled([
      runAffiliateImport(getDb(), { shopId: shop.id, importId: started.importId }, { chunkSize: 50 }),
      runAffiliateImport(getDb(), { shopId: shop.id, importId: started.importId }, { chunkSize: 50 }),
    ]);
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    await drainJobs();
    const done = await affiliateImportStatus(db, started.importId);
    expect(done).toMatchObject({ status: "done", processed: 250, imported: 250, merged: 0, refused: 0 });
    expect(done.finishedAt).not.toBeNull();
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(250);

    // A job queued again for a finished import changes nothing.
    await runAffiliateImport(getDb(), { shopId: shop.id, importId: started.importId });
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(250);
  });

  it("counts and reports merged and refused rows; merging fills empty fields only", async () => {
    const { shop, campaign, db } = await shopWithCampaign();
    await buildAffiliate(shop.id, campaign.id, { email: "known@example.com", firstName: "Kim", lastName: "" });
    const csv = [
      "email,first_name,last_name,referral_code,upline,signup: Instagram",
      "known@example.com,Other,Known,,,@kim",
      "new@example.com,New,Person,NEWP,,@new",
      "nobody-up@example.com,Up,,,ghost@example.com,",
      "second@example.com,Second,,NEWP,,",
      "bad,Bad,,,,",
    ].join("\n");
    const started = await startAffiliateImport(db, csv);
    if (!started.ok) throw new Error("the file was refused");
    await drainJobs();
    const status = await affiliateImportStatus(db, started.importId);
    expect(status).toMatchObject({ status: "done", total: 5, processed: 5, imported: 1, merged: 1, refused: 3 });
    expect(status.report.map((line) => [line.row, line.outcome, line.column])).toEqual([
      [2, "merged", "email"],
      [4, "refused", "upline"],
      [5, "refused", "referral_code"],
      [6, "refused", "email"],
    ]);
    const known = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "known@example.com" } });
    expect([known.firstName, known.lastName]).toEqual(["Kim", "Known"]);
  });

  it("keeps to its shop: the same e-mail in another shop is imported, not merged, and the status is not readable", async () => {
    const mine = await shopWithCampaign();
    const other = await shopWithCampaign();
    await buildAffiliate(other.shop.id, other.campaign.id, { email: "a0@example.com", lastName: "" });
    const started = await startAffiliateImport(mine.db, fileOf(3));
    if (!started.ok) throw new Error("the file was refused");
    await drainJobs();
    expect(await affiliateImportStatus(mine.db, started.importId)).toMatchObject({ imported: 3, merged: 0 });
    const untouched = await getDb().affiliate.findFirstOrThrow({
      where: { shopId: other.shop.id, email: "a0@example.com" },
    });
    expect(untouched.lastName).toBe("");
    await expect(affiliateImportStatus(other.db, started.importId)).rejects.toMatchObject({ code: "not_found" });
  });
});
