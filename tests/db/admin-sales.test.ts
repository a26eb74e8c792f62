import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { AdminClient, logInAs } from "../support/admin-client";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// The admin's sales screens over real HTTP against the built app: server-side
// filters and keyset pages, the sale's story (attribution, commission lines
// per level, refunds), approve / deny one or many, tenant scoping and staff
// permissions.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const LIST = "routes/$role.sales._index";
const DETAIL = "routes/$role.sales.$id";

async function setUp(language?: string) {
  const shop = await buildShop(language ? { language } : {});
  await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "America/New_York" } });
  const user = await buildUser(shop.id, { email: `admin-${shop.id}@example.com` });
  const admin = await logInAs(server.url, "admin", user.email);
  const campaign = await buildCampaign(shop.id);
  const upline = await buildAffiliate(shop.id, campaign.id, { referralCode: "CARA", email: "cara@aff.example" });
  const anna = await buildAffiliate(shop.id, campaign.id, { referralCode: "ANNA", email: "anna@aff.example" });
  await getDb().affiliate.update({ where: { id: anna.id }, data: { parentId: upline.id, firstName: "Anna" } });
  return { shop, admin, anna, upline };
}

type Row = { id: string; name: string };
const names = (data: { sales: Row[] }) => data.sales.map((s) => s.name);

describe("sales list", () => {
  it("pages newest first with ties broken by id, forwards and back, loading one page at a time", async () => {
    const { shop, admin } = await setUp();
    const base = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 120; i++) {
      // Pairs of orders share a placedAt: the id breaks the tie.
      await buildOrder(shop.id, { name: `#${1000 + i}`, placedAt: new Date(base + Math.floor(i / 2) * 60_000) });
    }
    const seen: string[] = [];
    let data = await (await admin.load("/admin/sales", LIST)).json();
    const pages = [data];
    while (data.after) {
      data = await (await admin.load(`/admin/sales?after=${data.after}`, LIST)).json();
      pages.push(data);
    }
    for (const page of pages) seen.push(...page.sales.map((s: Row) => s.id));
    expect(pages.map((p) => p.sales.length)).toEqual([25, 25, 25, 25, 20]);
    expect(new Set(seen).size).toBe(120);
    const all = await getDb().order.findMany({
      where: { shopId: shop.id },
      orderBy: [{ placedAt: "desc" }, { id: "desc" }],
    });
    expect(seen).toEqual(all.map((o) => o.id));
    const back = await (await admin.load(`/admin/sales?before=${pages[2].before}`, LIST)).json();
    expect(back.sales.map((s: Row) => s.id)).toEqual(pages[1].sales.map((s: Row) => s.id));
    expect((await admin.load("/admin/sales?after=%21%21", LIST)).status).toBe(200); // a malformed cursor is dropped
    expect((await admin.load("/admin/sales?after=bm9wZQ", LIST)).status).toBe(404); // a well-formed one that names nothing valid
  });

  it("filters by status, source, affiliate and shop-time date range, and sums live commissions", async () => {
    const { shop, admin, anna, upline } = await setUp();
    const ny = (iso: string) => new Date(iso); // instants; the shop is in New York (UTC-5 in January)
    const a = await buildOrder(shop.id, {
      name: "#A",
      affiliateId: anna.id,
      attributionSource: "coupon",
      placedAt: ny("2025-01-10T04:59:00Z"),
    });
    const b = await buildOrder(shop.id, {
      name: "#B",
      affiliateId: anna.id,
      attributionSource: "link",
      status: "approved",
      placedAt: ny("2025-01-10T05:00:00Z"),
    });
    await buildOrder(shop.id, {
      name: "#C",
      affiliateId: upline.id,
      attributionSource: "link",
      placedAt: ny("2025-01-11T04:59:59Z"),
    });
    await buildOrder(shop.id, { name: "#D", placedAt: ny("2025-01-12T12:00:00Z") });
    await buildCommission(shop.id, a.id, anna.id, { amount: 1000 });
    await buildCommission(shop.id, a.id, upline.id, { level: 2, amount: 300 });
    await buildCommission(shop.id, a.id, anna.id, { kind: "refund", sourceRef: "r1", amount: -250 });
    await buildCommission(shop.id, b.id, anna.id, { amount: 500, status: "denied" });

    const get = async (query: string) => (await admin.load(`/admin/sales?${query}`, LIST)).json();
    expect(names(await get(""))).toEqual(["#D", "#C", "#B", "#A"]);
    expect(names(await get("status=approved"))).toEqual(["#B"]);
    expect(names(await get("source=link"))).toEqual(["#C", "#B"]);
    expect(names(await get("source=none"))).toEqual(["#D"]);
    expect(names(await get("affiliate=anna"))).toEqual(["#B", "#A"]);
    expect(names(await get("affiliate=cara%40aff"))).toEqual(["#C"]);
    expect(names(await get(`affiliate_id=${upline.id}`))).toEqual(["#C"]);
    expect(names(await get("affiliate=nobody"))).toEqual([]);
    // 2025-01-10 in New York runs from 05:00Z to 05:00Z the next day.
    expect(names(await get("since=2025-01-10&until=2025-01-10"))).toEqual(["#C", "#B"]);
    expect(names(await get("until=2025-01-09"))).toEqual(["#A"]);
    expect(names(await get("status=pending&source=coupon&since=2025-01-01"))).toEqual(["#A"]);
    // Unknown values are dropped rather than failing the page.
    expect(names(await get("status=shipped&source=tv&since=2025-02-30"))).toHaveLength(4);

    const listed = (await get("")).sales.find((s: Row) => s.name === "#A");
    expect(listed).toMatchObject({ commission: 1050, affiliate: { code: "ANNA" }, source: "coupon" });
    // Only what the list shows goes to the page.
    expect(Object.keys(listed.affiliate).sort()).toEqual(["code", "name"]);
    expect((await get("")).sales.find((s: Row) => s.name === "#B").commission).toBe(0);
  });
});

describe("sale detail", () => {
  it("shows the attribution sentence, commission lines per level and refund adjustments", async () => {
    const { shop, admin, anna, upline } = await setUp();
    const order = await buildOrder(shop.id, {
      name: "#1001",
      affiliateId: anna.id,
      attributionSource: "coupon",
      attributionReason: "Credited to Anna Affiliate (ANNA): their coupon ANNA10 was used at checkout.",
      subtotal: 40_495,
      refundedAmount: 10_998,
    });
    await buildCommission(shop.id, order.id, anna.id, { amount: 4050, explanation: "10% (campaign rate) of $404.95" });
    await buildCommission(shop.id, order.id, upline.id, { level: 2, amount: 1215, explanation: "3% of the sale" });
    await buildCommission(shop.id, order.id, anna.id, {
      kind: "refund",
      sourceRef: "gid://shopify/Refund/1",
      amount: -1074,
      explanation: "Refund: $40.50 → $29.76",
    });
    const sale = (await (await admin.load(`/admin/sales/${order.id}`, DETAIL)).json()).sale;
    expect(sale.attribution).toMatchObject({
      source: "coupon",
      reason: "Credited to Anna Affiliate (ANNA): their coupon ANNA10 was used at checkout.",
      reasonKey: "",
      affiliate: { id: anna.id, code: "ANNA" },
    });
    expect(
      sale.commissions.map((c: { level: number; amount: number; affiliate: { code: string } }) => [
        c.level,
        c.affiliate.code,
        c.amount,
      ]),
    ).toEqual([
      [1, "ANNA", 4050],
      [2, "CARA", 1215],
    ]);
    expect(sale.adjustments).toMatchObject([
      { kind: "refund", level: 1, amount: -1074, explanation: "Refund: $40.50 → $29.76" },
    ]);
    expect(sale).toMatchObject({ netCommission: 4191, refundedAmount: 10_998, canApprove: true, canDeny: true });

    const page = await admin.document(`/admin/sales/${order.id}`);
    const html = await page.text();
    expect(html).toContain("their coupon ANNA10 was used at checkout.");
    expect(html).toContain("$40.50");
    expect(html).toContain("Refunds and adjustments");

    const none = await buildOrder(shop.id, { name: "#1002" });
    const uncredited = (await (await admin.load(`/admin/sales/${none.id}`, DETAIL)).json()).sale;
    expect(uncredited.attribution).toMatchObject({ reason: "", reasonKey: "" });
    // A row with no reason at all is worded from its source.
    expect(await (await admin.document(`/admin/sales/${none.id}`)).text()).toContain(
      "Not credited to any affiliate: the order carried no affiliate coupon",
    );
  });

  it("writes a new order's reason in the admin's language, and shows an older row's English text as it is", async () => {
    const { shop, admin, anna } = await setUp("de");
    const keyed = await buildOrder(shop.id, {
      name: "#2001",
      affiliateId: anna.id,
      attributionSource: "link",
      reason: {
        key: "Sales:attributionReason.linkClick",
        values: { who: "Anna Affiliate (ANNA)", days: 2, cookieDays: 30, clicks: 3, model: "last" },
      },
    });
    const legacy = await buildOrder(shop.id, {
      name: "#2002",
      affiliateId: anna.id,
      attributionSource: "coupon",
      attributionReason: "Credited to Anna Affiliate (ANNA): their coupon ANNA10 was used at checkout.",
    });
    const german = await (await admin.document(`/admin/sales/${keyed.id}`)).text();
    expect(german).toContain('<html lang="de"');
    expect(german).toContain(
      "Gutgeschrieben an Anna Affiliate (ANNA): Klick auf den Empfehlungslink 2 Tage vor der Bestellung (letzter von 3 Klicks), innerhalb des Cookie-Zeitraums von 30 Tagen.",
    );
    expect(german).not.toContain("Credited to");
    const old = await (await admin.document(`/admin/sales/${legacy.id}`)).text();
    expect(old).toContain("Credited to Anna Affiliate (ANNA): their coupon ANNA10 was used at checkout.");
  });

  it("approves a pending sale with its pending lines (refunds too), and refuses to decide it again or to change a paid one", async () => {
    const { shop, admin, anna } = await setUp();
    const order = await buildOrder(shop.id, { affiliateId: anna.id });
    await buildCommission(shop.id, order.id, anna.id, { amount: 1000 });
    await buildCommission(shop.id, order.id, anna.id, { kind: "refund", sourceRef: "r", amount: -200 });
    const ok = await admin.act(`/admin/sales/${order.id}`, DETAIL, { intent: "approve" });
    expect(ok.status).toBe(200);
    expect(await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: "approved",
      approveAfter: null,
    });
    const lines = await getDb().commission.findMany({ where: { orderId: order.id }, orderBy: { amount: "desc" } });
    // The refund made while pending is approved with the sale: 8.00 is payable, not 10.00.
    expect(lines.map((c) => [c.kind, c.status])).toEqual([
      ["sale", "approved"],
      ["refund", "approved"],
    ]);
    const again = await admin.act(`/admin/sales/${order.id}`, DETAIL, { intent: "deny" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("Only pending sales can be denied; this sale is approved.");

    const paid = await buildOrder(shop.id, { status: "paid" });
    const res = await admin.act(`/admin/sales/${paid.id}`, DETAIL, { intent: "approve" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toContain("this sale is paid");
    expect((await (await admin.load(`/admin/sales/${paid.id}`, DETAIL)).json()).sale).toMatchObject({
      canApprove: false,
      canDeny: false,
    });
    expect((await admin.act(`/admin/sales/${paid.id}`, DETAIL, { intent: "refund" })).status).toBe(422);
  });
});

describe("time zone", () => {
  it("says on the list and on the sale which zone its times are in (the shop's)", async () => {
    const { shop, admin } = await setUp();
    const order = await buildOrder(shop.id, { name: "#TZ", placedAt: new Date("2026-01-01T03:30:00Z") });
    const list = await (await admin.document("/admin/sales")).text();
    expect(list).toContain("Times in America/New_York");
    expect(list).toContain("Dec 31, 2025");
    const page = await (await admin.document(`/admin/sales/${order.id}`)).text();
    expect(page).toMatch(/Placed Dec 31, 2025, 10:30\sPM · Times in America\/New_York/);
  });
});

describe("bulk approve / deny", () => {
  it("decides the pending ones, reports the rest, and never touches another shop's sale", async () => {
    const { shop, admin, anna } = await setUp();
    const pending = await Promise.all([1, 2, 3].map(() => buildOrder(shop.id, { affiliateId: anna.id })));
    for (const o of pending) await buildCommission(shop.id, o.id, anna.id);
    const paid = await buildOrder(shop.id, { status: "paid", name: "#PAID" });
    const other = await buildShop();
    const theirs = await buildOrder(other.id);
    const ids = [...pending.map((o) => o.id), paid.id, theirs.id];
    const res = await admin.act("/admin/sales", LIST, { intent: "approve", ids });
    expect(res.status).toBe(200);
    const { result } = await res.json();
    expect(result.changed.sort()).toEqual(pending.map((o) => o.id).sort());
    expect(result.skipped).toEqual([{ id: paid.id, name: "#PAID", status: "paid" }]);
    expect(result.missing).toEqual([theirs.id]);
    expect(await getDb().order.count({ where: { shopId: shop.id, status: "approved" } })).toBe(3);
    expect(await getDb().commission.count({ where: { shopId: shop.id, status: "approved" } })).toBe(3);
    expect((await getDb().order.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("pending");

    const deny = await (
      await admin.act("/admin/sales", LIST, { intent: "deny", ids: pending.map((o) => o.id) })
    ).json();
    expect(deny.result.changed).toEqual([]);
    expect(deny.result.skipped).toHaveLength(3);
  });

  it("refuses malformed requests with 4xx field messages", async () => {
    const { admin } = await setUp();
    const empty = await admin.act("/admin/sales", LIST, { intent: "approve", ids: [] });
    expect(empty.status).toBe(422);
    expect((await empty.json()).error.fields).toEqual({ ids: "Select at least one sale" });
    const many = await admin.act("/admin/sales", LIST, {
      intent: "approve",
      ids: Array.from({ length: 251 }, (_, i) => `id${i}`),
    });
    expect((await many.json()).error.fields).toEqual({ ids: "Select at most 250 sales at a time" });
    const bad = await admin.act("/admin/sales", LIST, { intent: "pay", ids: ["x"] });
    expect(bad.status).toBe(422);
    const weird = await admin.act("/admin/sales", LIST, { intent: "approve", ids: ["../../etc"] });
    expect((await weird.json()).error.fields).toEqual({ "ids.0": "Not a valid id" });
  });
});

describe("tenant scoping and permissions", () => {
  it("answers 404 for another shop's sale, reading or deciding, and changes nothing", async () => {
    const { admin } = await setUp();
    const other = await buildShop();
    const theirs = await buildOrder(other.id, { name: "#THEIRS" });
    expect((await admin.load(`/admin/sales/${theirs.id}`, DETAIL)).status).toBe(404);
    expect((await admin.document(`/admin/sales/${theirs.id}`)).status).toBe(404);
    const res = await admin.act(`/admin/sales/${theirs.id}`, DETAIL, { intent: "approve" });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("#THEIRS");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("pending");
    expect(names(await (await admin.load("/admin/sales", LIST)).json())).toEqual([]);
  });

  it("gives staff without the sales permission 403 with no data on every loader and action", async () => {
    const shop = await buildShop();
    const order = await buildOrder(shop.id, { name: "#SECRET" });
    await buildUser(shop.id, { role: "staff", email: "campaigns-only@example.com", permissions: ["campaigns"] });
    const staff: AdminClient = await logInAs(server.url, "staff", "campaigns-only@example.com");
    const responses = [
      await staff.load("/staff/sales", LIST),
      await staff.load(`/staff/sales/${order.id}`, DETAIL),
      await staff.document("/staff/sales"),
      await staff.document(`/staff/sales/${order.id}`),
      await staff.act("/staff/sales", LIST, { intent: "approve", ids: [order.id] }),
      await staff.act(`/staff/sales/${order.id}`, DETAIL, { intent: "approve" }),
      // A staff user on the admin tree is refused whatever their permissions.
      await staff.load("/admin/sales", LIST),
    ];
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("#SECRET");
    }
    expect((await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("pending");

    await buildUser(shop.id, { role: "staff", email: "sales@example.com", permissions: ["sales"] });
    const allowed = await logInAs(server.url, "staff", "sales@example.com");
    expect(names(await (await allowed.load("/staff/sales", LIST)).json())).toEqual(["#SECRET"]);
  });
});
