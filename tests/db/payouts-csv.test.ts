import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildPendingPayout } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// Paying by hand with files, over real HTTP against the built app: the
// export puts the selected pending payouts into a CSV payment (processing,
// so they cannot be paid twice) and writes PayPal's, Wise's or the plain
// format; the import of the plain file with references runs as a job that
// marks each row's payout paid or says why not, row by row.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const EXPORT = "/admin/payouts/export";
const IMPORT = "/admin/payouts/import";

async function logIn(shopId: string, role: "admin" | "staff" = "admin", permissions: string[] = []) {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role, email, permissions });
  const client = new HttpClient(server.url);
  const res = await client.postForm(role === "admin" ? "/login" : "/staff/login", { email, password: TEST_PASSWORD });
  expect(res.status).toBe(302);
  return client;
}

async function setup() {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  const db = getDb();
  const person = async (email: string, firstName: string, lastName: string, paypalEmail: string | null) => {
    const a = await buildAffiliate(shop.id, campaign.id, { email });
    return db.affiliate.update({ where: { id: a.id }, data: { firstName, lastName, paypalEmail } });
  };
  const ann = await person("ann@example.com", "Ann", "Lee", "ann.pay@example.com");
  const bob = await person("bob@example.com", "Bob", "Ray", null);
  // An affiliate who signed up with a formula for a name.
  const eve = await person("eve@example.com", '=HYPERLINK("http://evil")', "-1", null);
  let t = Date.parse("2026-11-20T08:00:00.000Z");
  const pending = (affiliateId: string, amount: number, currency = "USD") =>
    buildPendingPayout(shop.id, affiliateId, amount, { currency, createdAt: new Date((t += 60_000)) });
  const p1 = await pending(ann.id, 12345);
  const p2 = await pending(bob.id, 500);
  const p3 = await pending(eve.id, 1000);
  const admin = await logIn(shop.id);
  return { shop, ann, bob, eve, p1, p2, p3, admin, pending };
}

const exportPayouts = (client: HttpClient, ids: string[], format: string) =>
  client.postForm(EXPORT, { ids: ids.join(","), format });

const download = (client: HttpClient, batch: string, format: string) =>
  client.get(`${EXPORT}?batch=${batch}&format=${format}`);

function importCsv(client: HttpClient, csv: string, path = IMPORT) {
  const form = new FormData();
  form.set("file", new Blob([csv], { type: "text/csv" }), "paid.csv");
  return client.request(path, { method: "POST", body: form });
}

describe("CSV export of pending payouts", () => {
  it("puts the selected payouts into a CSV payment and writes each format exactly", async () => {
    const { shop, p1, p2, p3, admin } = await setup();
    const res = await exportPayouts(admin, [p1.id, p2.id, p3.id], "plain");
    expect(res.status).toBe(200);
    const { batchId, format, count } = (await res.json()) as { batchId: string; format: string; count: number };
    expect({ format, count }).toEqual({ format: "plain", count: 3 });

    const batch = await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect(batch).toMatchObject({ shopId: shop.id, method: "csv", itemCount: 3 });
    const payouts = await getDb().payout.findMany({ where: { shopId: shop.id }, orderBy: { createdAt: "asc" } });
    expect(payouts.map((p) => [p.status, p.method, p.batchId, p.openKey])).toEqual([
      ["processing", "csv", batchId, null],
      ["processing", "csv", batchId, null],
      ["processing", "csv", batchId, null],
    ]);
    // A CSV payment waits for "mark paid": nothing is sent by itself.
    expect(await getDb().job.count({ where: { type: "payouts.send-batch" } })).toBe(0);

    const plain = await download(admin, batchId, "plain");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(plain.headers.get("content-disposition")).toMatch(
      /^attachment; filename="payouts-plain-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(await plain.text()).toBe(
      [
        "payout_id,affiliate_email,affiliate_name,paypal_email,amount,currency,payout_amount,payout_currency,rate,rate_source,rate_at,created_at,reference,paid_at,note",
        `${p1.id},ann@example.com,Ann Lee,ann.pay@example.com,123.45,USD,,,,,,2026-11-20T08:01:00.000Z,,,`,
        `${p2.id},bob@example.com,Bob Ray,,5.00,USD,,,,,,2026-11-20T08:02:00.000Z,,,`,
        `${p3.id},eve@example.com,"'=HYPERLINK(""http://evil"") -1",,10.00,USD,,,,,,2026-11-20T08:03:00.000Z,,,`,
        "",
      ].join("\n"),
    );

    // The same payment, again, in the payment services' formats.
    const paypal = await download(admin, batchId, "paypal");
    expect(paypal.headers.get("content-disposition")).toMatch(/payouts-paypal-\d{4}-\d{2}-\d{2}-usd\.csv/);
    expect(await paypal.text()).toBe(
      [
        `ann.pay@example.com,123.45,USD,${p1.id},Affiliate commission payout,PAYPAL`,
        `bob@example.com,5.00,USD,${p2.id},Affiliate commission payout,PAYPAL`,
        `eve@example.com,10.00,USD,${p3.id},Affiliate commission payout,PAYPAL`,
        "",
      ].join("\n"),
    );
    const wise = await download(admin, batchId, "wise");
    expect(await wise.text()).toBe(
      [
        "name,recipientEmail,paymentReference,receiverType,amountCurrency,amount,sourceCurrency,targetCurrency",
        `Ann Lee,ann@example.com,${p1.id},PRIVATE,target,123.45,USD,USD`,
        `Bob Ray,bob@example.com,${p2.id},PRIVATE,target,5.00,USD,USD`,
        `"'=HYPERLINK(""http://evil"") -1",eve@example.com,${p3.id},PRIVATE,target,10.00,USD,USD`,
        "",
      ].join("\n"),
    );
  });

  it("cannot export a payout twice, and refuses a PayPal file of two currencies without changing anything", async () => {
    const { shop, ann, p1, p2, admin, pending } = await setup();
    expect((await exportPayouts(admin, [p1.id], "wise")).status).toBe(200);
    // p1 left pending with the first file: the second is a conflict that changes nothing.
    const again = await exportPayouts(admin, [p1.id, p2.id], "plain");
    expect(again.status).toBe(409);
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p2.id } })).toMatchObject({ status: "pending" });

    const eur = await pending(ann.id, 700, "EUR");
    const mixed = await exportPayouts(admin, [p2.id, eur.id], "paypal");
    expect(mixed.status).toBe(422);
    expect(((await mixed.json()) as { error: { message: string } }).error.message).toBe(
      "A PayPal payment file takes one currency; the selected payouts are in EUR, USD. Export each currency on its own.",
    );
    expect(await getDb().payout.count({ where: { shopId: shop.id, status: "pending" } })).toBe(3);
    expect(await getDb().payoutBatch.count({ where: { shopId: shop.id } })).toBe(1);

    // Bad input: a clear 4xx, nothing changes.
    expect((await exportPayouts(admin, [], "plain")).status).toBe(422);
    expect((await exportPayouts(admin, [p2.id], "excel")).status).toBe(422);
    expect((await download(admin, "nope", "plain")).status).toBe(404);
    expect(await getDb().payout.count({ where: { shopId: shop.id, status: "pending" } })).toBe(3);
  });

  it("keeps shops and permissions apart", async () => {
    const { p1 } = await setup();
    const other = await setup();
    // Another shop's payout is not payable here.
    expect((await exportPayouts(other.admin, [p1.id], "plain")).status).toBe(422);
    const staff = await logIn(other.shop.id, "staff", ["affiliates"]);
    expect((await staff.postForm("/staff/payouts/export", { ids: other.p1.id, format: "plain" })).status).toBe(403);
    const payoutsStaff = await logIn(other.shop.id, "staff", ["payouts"]);
    expect((await payoutsStaff.postForm("/staff/payouts/export", { ids: other.p1.id, format: "plain" })).status).toBe(
      200,
    );
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p1.id } })).toMatchObject({ status: "pending" });
  });
});

/** Uploads the file, runs the queued job, and reads the import's status page. */
async function importAndRun(client: HttpClient, csv: string) {
  const res = await importCsv(client, csv);
  expect(res.status).toBe(202);
  const { importId } = (await res.json()) as { importId: string };
  const path = `/admin/payouts/imports/${importId}`;
  const queued = (await (await client.get(path)).json()) as { import: { status: string; processed: number } };
  expect(queued.import).toMatchObject({ status: "queued", processed: 0 });
  await drainJobs();
  const status = await client.get(path);
  expect(status.status).toBe(200);
  return ((await status.json()) as { import: Record<string, unknown> }).import;
}

describe("CSV import of paid payouts", () => {
  it("marks the good rows paid and refuses each bad row with its reason", async () => {
    const { shop, p1, p2, p3, admin } = await setup();
    const { batchId } = (await (await exportPayouts(admin, [p1.id, p2.id], "plain")).json()) as { batchId: string };
    const csv = [
      "payout_id,reference,paid_at,note",
      `${p1.id},PP-1,2026-11-21,`,
      "unknown-id,PP-2,,",
      `${p3.id},PP-3,,`, // still pending: never exported
      `${p2.id},,tomorrow,`,
    ].join("\n");
    const report = await importAndRun(admin, csv);
    expect(report).toMatchObject({ status: "done", total: 4, processed: 4, paid: 1, alreadyPaid: 0, refused: 3 });
    expect(report.report).toEqual([
      { row: 3, outcome: "refused", column: "payout_id", message: "Payouts:paidImport.reasons.notFound" },
      { row: 4, outcome: "refused", column: "payout_id", message: "Payouts:paidImport.reasons.stillPending" },
      { row: 5, outcome: "refused", column: "reference", message: "Enter the payment's reference" },
      { row: 5, outcome: "refused", column: "paid_at", message: "Use a date as YYYY-MM-DD (or an ISO 8601 time)" },
    ]);
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p1.id } })).toMatchObject({
      status: "paid",
      reference: "PP-1",
    });
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p2.id } })).toMatchObject({ status: "processing" });
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p3.id } })).toMatchObject({ status: "pending" });
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(1);
    // p2 is still being paid: the batch stays open.
    expect(await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({
      completedAt: null,
    });
  });

  it("marks every row paid with its reference, date and note; the same file again changes nothing", async () => {
    const { shop, p1, p2, admin } = await setup();
    const { batchId } = (await (await exportPayouts(admin, [p1.id, p2.id], "plain")).json()) as { batchId: string };
    // The plain export, filled in as a spreadsheet would save it.
    const exported = await (await download(admin, batchId, "plain")).text();
    const lines = exported.trim().split("\n");
    const filled = [
      lines[0],
      lines[1]!.replace(/,,,$/, ",PAYPAL-TX-1,2026-11-21,First run"),
      lines[2]!.replace(/,,,$/, ",WISE-77,2026-11-22T10:00:00Z,"),
    ].join("\r\n");

    expect(await importAndRun(admin, filled)).toMatchObject({
      status: "done",
      paid: 2,
      alreadyPaid: 0,
      refused: 0,
      report: [],
    });
    const [one, two] = await Promise.all([
      getDb().payout.findUniqueOrThrow({ where: { id: p1.id } }),
      getDb().payout.findUniqueOrThrow({ where: { id: p2.id } }),
    ]);
    expect(one).toMatchObject({
      status: "paid",
      reference: "PAYPAL-TX-1",
      note: "First run",
      paidAt: new Date("2026-11-21T12:00:00Z"),
    });
    expect(two).toMatchObject({ status: "paid", reference: "WISE-77", paidAt: new Date("2026-11-22T10:00:00Z") });
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(2);
    expect(await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "done" });

    const again = await importAndRun(admin, filled);
    expect(again).toMatchObject({ paid: 0, alreadyPaid: 2, refused: 0 });
    expect(again.report).toEqual([
      {
        row: 2,
        outcome: "alreadyPaid",
        column: "payout_id",
        message: 'Payouts:paidImport.reasons.alreadyPaid{"reference":"PAYPAL-TX-1"}',
      },
      {
        row: 3,
        outcome: "alreadyPaid",
        column: "payout_id",
        message: 'Payouts:paidImport.reasons.alreadyPaid{"reference":"WISE-77"}',
      },
    ]);
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(2);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, status: "paid" } })).toBe(2);

    // A different reference for a paid payout is a mistake, not an update.
    const changed = await importAndRun(admin, `payout_id,reference\n${p1.id},OTHER\n`);
    expect(changed).toMatchObject({ paid: 0, refused: 1 });
    expect(changed.report).toEqual([
      {
        row: 2,
        outcome: "refused",
        column: "payout_id",
        message: 'Payouts:paidImport.reasons.paidOtherReference{"reference":"PAYPAL-TX-1"}',
      },
    ]);
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p1.id } })).toMatchObject({
      reference: "PAYPAL-TX-1",
    });
  });

  it("refuses a file that is not a CSV of payouts, and another shop's payouts and imports", async () => {
    const { shop, p1, admin } = await setup();
    await exportPayouts(admin, [p1.id], "plain");
    const other = await setup();
    const foreign = await importAndRun(other.admin, `payout_id,reference\n${p1.id},X\n`);
    expect(foreign).toMatchObject({ paid: 0, refused: 1 });
    expect(foreign.report).toEqual([
      { row: 2, outcome: "refused", column: "payout_id", message: "Payouts:paidImport.reasons.notFound" },
    ]);
    // The other shop's import is no page of this one.
    expect((await admin.get(`/admin/payouts/imports/${foreign.id as string}`)).status).toBe(404);
    const bad = await importCsv(admin, "email,amount\nx,1\n");
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: { column: string }[] }).errors.map((e) => e.column)).toEqual([
      "email",
      "payout_id",
      "reference",
    ]);
    const noFile = await admin.request(IMPORT, { method: "POST", body: new FormData() });
    expect(noFile.status).toBe(422);
    expect(await getDb().paidPayoutImport.count({ where: { shopId: shop.id } })).toBe(0);
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: p1.id } })).toMatchObject({ status: "processing" });
  });
});
