import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildClick, buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The admin's affiliate screens over real HTTP against the built app: loader
// data (Remix's ?_data requests), actions, CSV export and import, tenant
// scoping and staff permissions.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const LIST = "routes/$role.affiliates._index";
const DETAIL = "routes/$role.affiliates.$id";

async function logIn(shopId: string, role: "admin" | "staff" = "admin", permissions: string[] = []) {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role, email, permissions });
  const client = new HttpClient(server.url);
  const res = await client.postForm(role === "admin" ? "/login" : "/staff/login", { email, password: TEST_PASSWORD });
  expect(res.status).toBe(302);
  return client;
}

const listData = (client: HttpClient, query = "", role = "admin") =>
  client.get(`/${role}/affiliates?${query}${query ? "&" : ""}_data=${encodeURIComponent(LIST)}`);
const detailData = (client: HttpClient, id: string, role = "admin") =>
  client.get(`/${role}/affiliates/${id}?_data=${encodeURIComponent(DETAIL)}`);
const importData = (client: HttpClient, id: string) =>
  client.get(`/admin/affiliates/imports/${id}?_data=${encodeURIComponent("routes/$role.affiliates.imports.$id")}`);

/** Uploads a file, runs the queued import job, and answers the import's status as the page polls it. */
async function importAndWait(client: HttpClient, csv: string) {
  const res = await importCsv(client, csv);
  expect(res.status).toBe(202);
  const { importId } = (await res.json()) as { importId: string };
  await drainJobs();
  return (await (await importData(client, importId)).json()).import;
}

const listAction = (client: HttpClient, form: Record<string, string>, role = "admin") =>
  client.postForm(`/${role}/affiliates?index&_data=${encodeURIComponent(LIST)}`, form);
const detailAction = (client: HttpClient, id: string, form: Record<string, string>, role = "admin") =>
  client.postForm(`/${role}/affiliates/${id}?_data=${encodeURIComponent(DETAIL)}`, form);

function importCsv(client: HttpClient, csv: string, role = "admin") {
  const form = new FormData();
  form.set("intent", "import");
  form.set("file", new Blob([csv], { type: "text/csv" }), "affiliates.csv");
  return client.request(`/${role}/affiliates?index&_data=${encodeURIComponent(LIST)}`, { method: "POST", body: form });
}

async function setup() {
  const shop = await buildShop();
  const campaign = await getDb().campaign.create({
    data: { shopId: shop.id, name: "Main", status: "active", isDefault: true },
  });
  const admin = await logIn(shop.id);
  return { shop, campaign, admin };
}

const validForm = (extra: Record<string, string> = {}) => ({
  first_name: "Jane",
  last_name: "Doe",
  email: "jane@example.com",
  status: "",
  campaign_id: "",
  referral_code: "",
  coupon_codes: "",
  upline: "",
  ...extra,
});

describe("affiliate list", () => {
  it("pages, filters, searches and sorts on the server, within the shop", async () => {
    const { shop, campaign, admin } = await setup();
    const other = await buildCampaign(shop.id, { name: "Second" });
    for (let i = 0; i < 27; i++)
      await buildAffiliate(shop.id, campaign.id, { status: i % 3 === 0 ? "pending" : "approved" });
    await buildAffiliate(shop.id, other.id, { email: "zed@example.com", referralCode: "ZEDCODE" });
    const foreign = await buildShop();
    const foreignCampaign = await buildCampaign(foreign.id);
    await buildAffiliate(foreign.id, foreignCampaign.id, { email: "foreign@example.com" });

    const first = await (await listData(admin)).json();
    expect(first.total).toBe(28);
    expect(first.rows).toHaveLength(25);
    expect(first.pageCount).toBe(2);
    const second = await (await listData(admin, "page=2")).json();
    expect(second.rows).toHaveLength(3);
    const emails = [...first.rows, ...second.rows].map((r: { email: string }) => r.email);
    expect(new Set(emails).size).toBe(28);
    expect(emails).not.toContain("foreign@example.com");

    const pending = await (await listData(admin, "status=pending")).json();
    expect(pending.total).toBe(9);
    expect(pending.rows.every((r: { status: string }) => r.status === "pending")).toBe(true);
    const byCampaign = await (await listData(admin, `campaign=${other.id}`)).json();
    expect(byCampaign.rows.map((r: { email: string }) => r.email)).toEqual(["zed@example.com"]);
    const search = await (await listData(admin, "q=zedco")).json();
    expect(search.rows.map((r: { email: string }) => r.email)).toEqual(["zed@example.com"]);
    const sorted = await (await listData(admin, "sort=email+desc")).json();
    expect(sorted.rows[0].email).toBe("zed@example.com");
    // Another shop's campaign filters to nothing rather than leaking.
    expect((await (await listData(admin, `campaign=${foreignCampaign.id}`)).json()).total).toBe(0);
  });

  it("answers bad query parameters with 422 and field messages", async () => {
    const { admin } = await setup();
    const res = await listData(admin, "status=bogus&page=0&sort=evil");
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.error.fields).sort()).toEqual(["page", "sort", "status"]);
  });
});

describe("approvals", () => {
  it("approves, denies and deactivates many at once, skipping those the action does not apply to", async () => {
    const { shop, campaign, admin } = await setup();
    const a = await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    const b = await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    const c = await buildAffiliate(shop.id, campaign.id, { status: "approved" });
    const res = await listAction(admin, { intent: "status", action: "approve", ids: [a.id, b.id, c.id].join(",") });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ changed: 2, skipped: 1 });
    const deny = await (await listAction(admin, { intent: "status", action: "deny", ids: c.id })).json();
    expect(deny).toMatchObject({ changed: 0, skipped: 1 });
    const off = await (
      await listAction(admin, { intent: "status", action: "deactivate", ids: `${a.id},${c.id}` })
    ).json();
    expect(off).toMatchObject({ changed: 2, skipped: 0 });
    const statuses = await getDb().affiliate.findMany({
      where: { shopId: shop.id },
      orderBy: { createdAt: "asc" },
      select: { status: true },
    });
    expect(statuses.map((s) => s.status)).toEqual(["inactive", "approved", "inactive"]);
  });

  it("refuses another shop's ids with 404 and changes nothing, and bad input with 422", async () => {
    const { shop, campaign, admin } = await setup();
    const own = await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    const foreign = await buildShop();
    const foreignAff = await buildAffiliate(foreign.id, (await buildCampaign(foreign.id)).id, { status: "pending" });
    const res = await listAction(admin, { intent: "status", action: "approve", ids: `${own.id},${foreignAff.id}` });
    expect(res.status).toBe(404);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: own.id } })).status).toBe("pending");
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: foreignAff.id } })).status).toBe("pending");
    const bad = await listAction(admin, { intent: "status", action: "promote", ids: "" });
    expect(bad.status).toBe(422);
    const fields = (await bad.json()).error.fields;
    expect(fields.action).toBe("Choose approve, deny or deactivate");
    expect(fields.ids).toBe("Select at least one affiliate");
    // The detail page's buttons: one affiliate, same rules.
    expect((await detailAction(admin, own.id, { intent: "deny" })).status).toBe(200);
    expect((await detailAction(admin, own.id, { intent: "deny" })).status).toBe(409);
    expect((await detailAction(admin, foreignAff.id, { intent: "approve" })).status).toBe(404);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: foreignAff.id } })).status).toBe("pending");
  });
});

describe("add and edit", () => {
  it("adds an affiliate by hand with a generated code, or explains every bad field", async () => {
    const { shop, admin } = await setup();
    const bad = await listAction(admin, {
      intent: "create",
      ...validForm({ email: "nope", first_name: " ", referral_code: "a b", coupon_codes: "OK1 X" }),
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.fields).toEqual({
      email: "Enter a valid e-mail address",
      first_name: "Enter a first name",
      referral_code: "Use 3 to 32 letters, digits, - or _",
      coupon_codes: "Use 3 to 64 characters",
    });
    const ok = await listAction(admin, { intent: "create", ...validForm({ coupon_codes: "jane10, JANE20" }) });
    expect(ok.status).toBe(200);
    const { id } = await ok.json();
    const row = await getDb().affiliate.findFirstOrThrow({
      where: { id, shopId: shop.id },
      include: { coupons: true },
    });
    expect(row).toMatchObject({ email: "jane@example.com", referralCode: "JANEDOE", status: "pending" });
    expect(row.coupons.map((c) => c.code).sort()).toEqual(["JANE10", "JANE20"]);
    const dup = await listAction(admin, { intent: "create", ...validForm({ coupon_codes: "JANE10" }) });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error.fields.email).toContain("exists already");
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(1);
  });

  it("edits code, coupons, campaign and upline, and refuses an upline cycle", async () => {
    const { shop, campaign, admin } = await setup();
    const second = await buildCampaign(shop.id, { name: "VIP" });
    const top = await buildAffiliate(shop.id, campaign.id, { referralCode: "TOPCODE" });
    const mid = await buildAffiliate(shop.id, campaign.id, { referralCode: "MIDCODE" });
    const form = (a: { email: string }, extra: Record<string, string>) =>
      validForm({ email: a.email, status: "approved", campaign_id: campaign.id, ...extra });
    const save = await detailAction(admin, mid.id, {
      intent: "update",
      ...form(mid, { referral_code: "mid-new", coupon_codes: "MID5", campaign_id: second.id, upline: "topcode" }),
    });
    expect(save.status).toBe(200);
    const row = await getDb().affiliate.findUniqueOrThrow({ where: { id: mid.id }, include: { coupons: true } });
    expect(row).toMatchObject({ referralCode: "MID-NEW", campaignId: second.id, parentId: top.id, firstName: "Jane" });
    expect(row.coupons.map((c) => c.code)).toEqual(["MID5"]);

    // top -> mid already; making mid the upline of top would be a cycle.
    const cycle = await detailAction(admin, top.id, { intent: "update", ...form(top, { upline: "MID-NEW" }) });
    expect(cycle.status).toBe(422);
    expect((await cycle.json()).error.fields.upline).toBe(
      "This upline would create a cycle: the affiliate is already above it",
    );
    const self = await detailAction(admin, top.id, { intent: "update", ...form(top, { upline: top.email }) });
    expect((await self.json()).error.fields.upline).toBe("An affiliate cannot be its own upline");
    const unknown = await detailAction(admin, top.id, { intent: "update", ...form(top, { upline: "NOSUCH" }) });
    expect((await unknown.json()).error.fields.upline).toBe("No affiliate with this referral code or e-mail");
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: top.id } })).parentId).toBeNull();

    const foreign = await buildShop();
    const foreignCampaign = await buildCampaign(foreign.id);
    const moved = await detailAction(admin, mid.id, {
      intent: "update",
      ...form(mid, { campaign_id: foreignCampaign.id }),
    });
    expect(moved.status).toBe(422);
    expect((await moved.json()).error.fields.campaign_id).toBe("No campaign with this id in this shop");
  });
});

describe("affiliate detail", () => {
  it("shows clicks, sales, commissions and the balance (approved, unpaid, refunds included)", async () => {
    const { shop, campaign, admin } = await setup();
    const aff = await buildAffiliate(shop.id, campaign.id);
    const other = await buildAffiliate(shop.id, campaign.id);
    for (let i = 0; i < 3; i++) await buildClick(shop.id, aff.id);
    await buildClick(shop.id, aff.id, { createdAt: new Date(Date.now() - 60 * 24 * 3600 * 1000) });
    await buildClick(shop.id, other.id);
    const o1 = await buildOrder(shop.id, { affiliateId: aff.id, subtotal: 10_000 });
    const o2 = await buildOrder(shop.id, { affiliateId: aff.id, subtotal: 5_000 });
    await buildCommission(shop.id, o1.id, aff.id, { amount: 1_000, status: "approved" });
    await buildCommission(shop.id, o1.id, aff.id, {
      amount: -300,
      status: "approved",
      kind: "refund",
      sourceRef: "r1",
    });
    await buildCommission(shop.id, o2.id, aff.id, { amount: 500, status: "pending" });
    const paid = await buildCommission(shop.id, o2.id, aff.id, { amount: 700, status: "paid", sourceRef: "p" });
    const payout = await getDb().payout.create({
      data: { shopId: shop.id, affiliateId: aff.id, amount: 700, currency: "USD", status: "paid" },
    });
    await getDb().commission.update({ where: { id: paid.id }, data: { payoutId: payout.id } });
    await buildCommission(shop.id, o2.id, other.id, { amount: 9_999, status: "approved" });

    const res = await detailData(admin, aff.id);
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.stats).toEqual({ clicks: 4, clicks30: 3, recruits: 0 });
    expect(data.money).toMatchObject({
      sales: 2,
      revenue: [{ currency: "USD", amount: 15_000 }],
      balance: [{ currency: "USD", amount: 700 }],
      commissions: {
        approved: [{ currency: "USD", amount: 700 }],
        pending: [{ currency: "USD", amount: 500 }],
        paid: [{ currency: "USD", amount: 700 }],
      },
    });
    expect(data.recentClicks).toHaveLength(4);
    expect(data.money.recentSales).toHaveLength(2);
    expect(data.money.recentCommissions).toHaveLength(4);
    // The link names its shop (a code is unique per shop only).
    expect(data.links.referral_link).toMatch(
      new RegExp(`/r/${shop.domain.replace(".myshopify.com", "")}/${aff.referralCode}$`),
    );
    const page = await admin.get(`/admin/affiliates/${aff.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(aff.email);
    expect(html).toContain(o1.name);

    // Staff with the affiliates area but not sales see the affiliate, not the orders and money.
    const staff = await logIn(shop.id, "staff", ["affiliates"]);
    const limited = await (await detailData(staff, aff.id, "staff")).json();
    expect(limited.money).toBeNull();
    expect(limited.stats.clicks).toBe(4);
    const staffPage = await (await staff.get(`/staff/affiliates/${aff.id}`)).text();
    expect(staffPage).toContain(aff.email);
    expect(staffPage).not.toContain(o1.name);
  });

  it("shows dates in the shop's time zone and says which, on the list and the affiliate's page", async () => {
    const { shop, campaign, admin } = await setup();
    await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "America/Los_Angeles" } });
    // 03:30 UTC on New Year's Day is still New Year's Eve in Los Angeles.
    const at = new Date("2026-01-01T03:30:00Z");
    const a = await buildAffiliate(shop.id, campaign.id, { email: "nye@aff.example" });
    await getDb().affiliate.update({ where: { id: a.id }, data: { createdAt: at } });
    const order = await buildOrder(shop.id, { affiliateId: a.id, name: "#NYE", placedAt: at });
    await buildCommission(shop.id, order.id, a.id);
    await buildClick(shop.id, a.id, { createdAt: at });

    const list = await (await admin.get("/admin/affiliates")).text();
    expect(list).toContain("Times in America/Los_Angeles");
    expect(list).toContain("Dec 31, 2025");
    expect(list).not.toContain("Jan 1, 2026");

    const page = await (await admin.get(`/admin/affiliates/${a.id}`)).text();
    expect(page).toContain("Times in America/Los_Angeles");
    // Created, the sale and the click: each at 7:30 PM on New Year's Eve there, none in UTC.
    expect(page.match(/Dec 31, 2025, 7:30\sPM/g)?.length).toBe(3);
    // What the page shows, not its markup: asset names are build hashes (a
    // chunk once was named "chunk-M2H7ZUTC.js").
    const shown = page.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, " ");
    expect(shown).toContain("Times in America/Los_Angeles");
    expect(shown).not.toContain("UTC");
  });

  it("gives 404 with no data for another shop's affiliate, and for ids that cannot exist", async () => {
    const { admin } = await setup();
    const foreign = await buildShop();
    const aff = await buildAffiliate(foreign.id, (await buildCampaign(foreign.id)).id, { email: "secret@example.com" });
    const page = await admin.get(`/admin/affiliates/${aff.id}`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain("secret@example.com");
    expect((await detailData(admin, aff.id)).status).toBe(404);
    const write = await detailAction(admin, aff.id, {
      intent: "update",
      ...validForm({ email: "stolen@example.com", status: "approved", campaign_id: aff.campaignId }),
    });
    expect(write.status).toBe(404);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: aff.id } })).email).toBe("secret@example.com");
    expect((await admin.get("/admin/affiliates/not.an.id!")).status).toBe(404);
  });
});

describe("staff permissions", () => {
  it("refuses staff without the affiliates area on every loader and action with 403 and no data", async () => {
    const { shop, campaign } = await setup();
    const aff = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "hidden@example.com" });
    const staff = await logIn(shop.id, "staff", ["campaigns", "sales"]);
    const responses = [
      await staff.get("/staff/affiliates"),
      await listData(staff, "", "staff"),
      await staff.get(`/staff/affiliates/${aff.id}`),
      await detailData(staff, aff.id, "staff"),
      await staff.get("/staff/affiliates/export"),
      await listAction(staff, { intent: "status", action: "approve", ids: aff.id }, "staff"),
      await listAction(staff, { intent: "create", ...validForm() }, "staff"),
      await detailAction(staff, aff.id, { intent: "approve" }, "staff"),
      await importCsv(staff, "email,first_name\nnew@example.com,New\n", "staff"),
    ];
    for (const res of responses) {
      expect(res.status, res.url).toBe(403);
      const text = await res.text();
      expect(text).not.toContain("hidden@example.com");
      expect(text).not.toContain(aff.referralCode);
    }
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: aff.id } })).status).toBe("pending");
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(1);

    const allowed = await logIn(shop.id, "staff", ["affiliates"]);
    expect((await listData(allowed, "", "staff")).status).toBe(200);
    expect((await listAction(allowed, { intent: "status", action: "approve", ids: aff.id }, "staff")).status).toBe(200);
  });
});

describe("CSV", () => {
  it("exports the filtered affiliates with a header, guarding cells against formulas", async () => {
    const { shop, campaign, admin } = await setup();
    const parent = await buildAffiliate(shop.id, campaign.id, { referralCode: "PARENT1" });
    const child = await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        parentId: parent.id,
        email: "evil@example.com",
        firstName: '=HYPERLINK("http://x")',
        lastName: "-1",
        referralCode: "CHILD1",
        status: "pending",
      },
    });
    await getDb().coupon.create({ data: { shopId: shop.id, affiliateId: child.id, code: "CHILD10" } });
    const foreign = await buildShop();
    await buildAffiliate(foreign.id, (await buildCampaign(foreign.id)).id, { email: "foreign@example.com" });

    const res = await admin.get("/admin/affiliates/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="affiliates-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe("id,created_at,email,first_name,last_name,status,campaign,referral_code,coupon_codes,upline");
    expect(lines).toHaveLength(3);
    const childLine = lines.find((line) => line.includes("evil@example.com"))!;
    expect(childLine).toContain(`"'=HYPERLINK(""http://x"")",'-1,pending,Main,CHILD1,CHILD10,PARENT1`);
    expect(lines.join("\n")).not.toContain("foreign@example.com");
    const pendingOnly = (await (await admin.get("/admin/affiliates/export?status=pending")).text()).trim().split("\n");
    expect(pendingOnly).toHaveLength(2);
    expect((await admin.get("/admin/affiliates/export?status=nope")).status).toBe(422);
  });

  it("imports the rows in a job, an upline may be a row above", async () => {
    const { shop, admin } = await setup();
    await getDb().campaign.create({ data: { shopId: shop.id, name: "VIP" } });
    const csv = [
      "email,first_name,last_name,status,campaign,referral_code,coupon_codes,upline",
      "ann@example.com,Ann,Lee,approved,VIP,ANNLEE,ANN10 ANN20,",
      "bob@example.com,Bob,,,,,,annlee",
      '"cid@example.com","Cid","O\'Neil",pending,main,,"CID5, CID6",bob@example.com',
    ].join("\r\n");
    const status = await importAndWait(admin, csv);
    expect(status).toMatchObject({ status: "done", total: 3, processed: 3, imported: 3, merged: 0, refused: 0 });
    const rows = await getDb().affiliate.findMany({
      where: { shopId: shop.id },
      include: { campaign: true, coupons: true, parent: true },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((r) => [r.email, r.status, r.campaign.name, r.parent?.email ?? null])).toEqual([
      ["ann@example.com", "approved", "VIP", null],
      ["bob@example.com", "pending", "Main", "ann@example.com"],
      ["cid@example.com", "pending", "Main", "bob@example.com"],
    ]);
    expect(rows[1]!.referralCode).toBe("BOB");
    expect(rows[2]!.coupons.map((c) => c.code).sort()).toEqual(["CID5", "CID6"]);
  });

  it("imports the good rows, merges known e-mails and reports each refused row's problems", async () => {
    const { shop, campaign, admin } = await setup();
    await buildAffiliate(shop.id, campaign.id, { email: "taken@example.com", referralCode: "TAKEN", lastName: "" });
    const csv = [
      "email,first_name,last_name,status,campaign,referral_code,coupon_codes,upline",
      "ok1@example.com,Ok,One,,,,,",
      "not-an-email,Bad,,,,,,",
      "taken@example.com,Dup,Filled,,,,,",
      "ok2@example.com,Ok,Two,weird,,,,",
      "ok3@example.com,Ok,Three,,Nope,TAKEN,,",
      "ok4@example.com,Ok,Four,,,,,NOBODY",
      "ok1@example.com,Again,,,,,,",
    ].join("\n");
    const status = await importAndWait(admin, csv);
    expect(status).toMatchObject({ status: "done", total: 7, processed: 7, imported: 1, merged: 2, refused: 4 });
    expect(status.report).toEqual([
      { row: 3, outcome: "refused", column: "email", message: "Enter a valid e-mail address" },
      {
        row: 4,
        outcome: "merged",
        column: "email",
        message: 'Affiliates:importJob.reasons.mergedFilled{"email":"taken@example.com","fields":"last_name"}',
      },
      { row: 5, outcome: "refused", column: "status", message: expect.stringContaining("Invalid enum value") },
      { row: 6, outcome: "refused", column: "campaign", message: "Affiliates:importJob.reasons.campaignUnknown" },
      {
        row: 6,
        outcome: "refused",
        column: "referral_code",
        message: 'Affiliates:importJob.reasons.referralCodeTaken{"code":"TAKEN"}',
      },
      { row: 7, outcome: "refused", column: "upline", message: "Affiliates:importJob.reasons.uplineUnknown" },
      {
        row: 8,
        outcome: "merged",
        column: "email",
        message: 'Affiliates:importJob.reasons.mergedNothing{"email":"ok1@example.com"}',
      },
    ]);
    // Merging fills what was empty and overwrites nothing.
    const taken = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "taken@example.com" } });
    expect([taken.firstName, taken.lastName, taken.referralCode]).not.toContain("Dup");
    expect(taken.lastName).toBe("Filled");
    const ok1 = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "ok1@example.com" } });
    expect(ok1.firstName).toBe("Ok");
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(2);
  });

  it("refuses a file it cannot read whole, and queues nothing", async () => {
    const { shop, admin } = await setup();
    const header = await importCsv(admin, "mail,first_name,colour\nx@example.com,X,red\n");
    expect(header.status).toBe(422);
    const headerErrors = (await header.json()).errors;
    expect(headerErrors).toEqual(
      expect.arrayContaining([
        { row: 1, column: "mail", message: expect.stringContaining("Unknown column") },
        { row: 1, column: "email", message: "This column is required" },
      ]),
    );
    const noFile = await listAction(admin, { intent: "import" });
    expect(noFile.status).toBe(422);
    expect(await getDb().affiliateImport.count({ where: { shopId: shop.id } })).toBe(0);
    expect(await getDb().job.count({ where: { type: "affiliates.import" } })).toBe(0);
  });
});
