import { createHmac, randomBytes } from "node:crypto";
import { API_SECRET_KEY, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { useTestServer } from "../support/test-server";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "~/db.server";
import { parseDatabaseUrl } from "~/db/database-url";

applyTestEnv();
const database = useTestDatabase();
const server = useTestServer();

// The click fast path caches code lookups for a few seconds, and every test
// starts from empty tables: each test uses codes of its own.
const newCode = (prefix = "AFF") => `${prefix}${randomBytes(4).toString("hex")}`.toUpperCase();

async function shopWithAffiliate(
  options: { status?: string; code?: string; url?: string; referralParam?: string } = {},
) {
  const shop = await buildShop();
  const updated = await getDb().shop.update({
    where: { id: shop.id },
    data: { url: options.url ?? "https://store.example", referralParam: options.referralParam ?? "ref" },
  });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, {
    status: options.status ?? "approved",
    referralCode: options.code ?? newCode(),
  });
  return { shop: updated, campaign, affiliate };
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url(path), { headers, redirect: "manual" });

function clickIdOf(location: string): string {
  const id = new URL(location).searchParams.get("_aff_click");
  expect(id).toMatch(/^[A-Za-z0-9_-]{27}$/);
  return id!;
}

describe("GET /r/{code}", () => {
  it("records the click, then redirects to the storefront with the code and the click id", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const res = await get(`/r/${affiliate.referralCode.toLowerCase()}`, {
      referer: "https://blog.example/post",
      "user-agent": "Mozilla/5.0 (test)",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const location = res.headers.get("location")!;
    const clickId = clickIdOf(location);
    expect(location).toBe(`https://store.example/?ref=${affiliate.referralCode}&_aff_click=${clickId}`);
    // The row is there the moment the redirect arrives.
    const click = await getDb().click.findUnique({ where: { clickId } });
    expect(click).toMatchObject({
      shopId: shop.id,
      affiliateId: affiliate.id,
      source: "link",
      landingUrl: "https://store.example/",
      referrer: "https://blog.example/post",
      userAgent: "Mozilla/5.0 (test)",
    });
    expect(click!.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("stores sub_id, sub1..sub5 and utm_* on the click, cleaned and cut, and counts a QR scan apart", async () => {
    const { affiliate, shop } = await shopWithAffiliate();
    const handle = shop.domain.replace(/\.myshopify\.com$/, "");
    const long = "x".repeat(300);
    const res = await get(
      `/r/${handle}/${affiliate.referralCode}?to=/products/x&sub_id=%20ig-bio%00&sub2=${long}&utm_source=ig&utm_medium=&bogus=1&via=qr`,
    );
    expect(res.status).toBe(302);
    const click = await getDb().click.findUniqueOrThrow({
      where: { clickId: clickIdOf(res.headers.get("location")!) },
    });
    expect(click.source).toBe("qr");
    expect(click.subId).toBe("ig-bio");
    expect(JSON.parse(click.linkTags!)).toEqual({ sub2: "x".repeat(64), utm_source: "ig" });

    // Unprintable-only values are dropped; the click is still recorded as a plain link click.
    const plain = await get(`/r/${handle}/${affiliate.referralCode}?sub_id=%01%02&via=email`);
    expect(plain.status).toBe(302);
    const other = await getDb().click.findUniqueOrThrow({
      where: { clickId: clickIdOf(plain.headers.get("location")!) },
    });
    expect(other).toMatchObject({ source: "link", subId: null, linkTags: null });
  });

  it("goes through /discount/{code} only with auto-apply on and a code Shopify has", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const code = affiliate.referralCode;
    const db = getDb();
    // Auto-apply on, but only a code still pending in Shopify: the plain link.
    await db.shop.update({ where: { id: shop.id }, data: { autoApplyDiscount: true } });
    await db.coupon.create({
      data: { shopId: shop.id, affiliateId: affiliate.id, code: `P-${code}`, shopifyStatus: "pending" },
    });
    const pending = await get(`/r/${code}?to=/p%3Fx%3D1`);
    expect(pending.headers.get("location")).toMatch(/^https:\/\/store\.example\/p\?x=1&ref=/);
    // A code Shopify has (a new affiliate, so the cached lookup is not reused).
    const other = await buildAffiliate(shop.id, affiliate.campaignId, { status: "approved", referralCode: newCode() });
    await db.coupon.create({ data: { shopId: shop.id, affiliateId: other.id, code: `10% ${other.referralCode}` } });
    const res = await get(`/r/${other.referralCode}?to=/p%3Fx%3D1&sub_id=s1`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`https://store.example/discount/10%25%20${other.referralCode}`);
    const redirect = new URL(location.searchParams.get("redirect")!, "https://store.example");
    expect(redirect.pathname + "?x=1").toBe("/p?x=1");
    expect(redirect.searchParams.get("ref")).toBe(other.referralCode);
    const click = await db.click.findUniqueOrThrow({ where: { clickId: redirect.searchParams.get("_aff_click")! } });
    expect(click).toMatchObject({ affiliateId: other.id, subId: "s1", landingUrl: "https://store.example/p?x=1" });
  });

  it("stores a keyed hash of the client address, never the address", async () => {
    const { affiliate } = await shopWithAffiliate();
    const res = await get(`/r/${affiliate.referralCode}`);
    const click = await getDb().click.findUniqueOrThrow({
      where: { clickId: clickIdOf(res.headers.get("location")!) },
    });
    const expected = createHmac("sha256", process.env.SESSION_SECRET!).update("127.0.0.1").digest("hex").slice(0, 32);
    expect(click.ipHash).toBe(expected);
    expect(click.ipHash).not.toContain("127.0.0.1");
    const row = JSON.stringify(click);
    expect(row).not.toContain("127.0.0.1");
  });

  it("truncates a long user agent to 512 characters", async () => {
    const { affiliate } = await shopWithAffiliate();
    const res = await get(`/r/${affiliate.referralCode}`, { "user-agent": "U".repeat(2000) });
    const click = await getDb().click.findUniqueOrThrow({
      where: { clickId: clickIdOf(res.headers.get("location")!) },
    });
    expect(click.userAgent).toHaveLength(512);
  });

  it("keeps the landing path and its own query, with the shop's referral parameter", async () => {
    const { affiliate } = await shopWithAffiliate({ referralParam: "aff" });
    const to = encodeURIComponent("/products/blue-shirt?variant=42&ref=OTHER");
    const res = await get(`/r/${affiliate.referralCode}?to=${to}`);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    const clickId = clickIdOf(location);
    expect(location).toBe(
      `https://store.example/products/blue-shirt?variant=42&ref=OTHER&aff=${affiliate.referralCode}&_aff_click=${clickId}`,
    );
    const click = await getDb().click.findUniqueOrThrow({ where: { clickId } });
    expect(click.landingUrl).toBe("https://store.example/products/blue-shirt?variant=42&ref=OTHER");
  });

  it("uses the myshopify domain when the shop has no usable storefront URL", async () => {
    const { shop, affiliate } = await shopWithAffiliate({ url: "" });
    const res = await get(`/r/${affiliate.referralCode}/`);
    expect(res.headers.get("location")).toMatch(new RegExp(`^https://${shop.domain.replace(/\./g, "\\.")}/\\?ref=`));
  });

  it.each([
    "//evil.com",
    "https://evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "//evil.com/%2F..",
    "/\t/evil.com",
    "javascript:alert(1)",
    "evil.com",
  ])("never leaves the shop's domain for to=%j", async (to) => {
    const { affiliate } = await shopWithAffiliate();
    const res = await get(`/r/${affiliate.referralCode}?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.host).toBe("store.example");
    expect(location.pathname).toBe("/");
    expect(await getDb().click.count()).toBe(1);
  });

  it("answers unknown and disabled codes alike and records nothing", async () => {
    const { shop, affiliate: pending } = await shopWithAffiliate({ status: "pending" });
    const campaign = await buildCampaign(shop.id);
    const denied = await buildAffiliate(shop.id, campaign.id, { status: "denied", referralCode: newCode() });
    const codes = [newCode("NOPE"), pending.referralCode, denied.referralCode];

    // Without ?shop=: a plain 404, the same for all.
    const anonymous = await Promise.all(codes.map((code) => get(`/r/${code}`)));
    const shapes = await Promise.all(
      anonymous.map(
        async (r) => `${r.status} ${r.headers.get("location")} ${r.headers.get("content-type")} ${await r.text()}`,
      ),
    );
    expect(shapes[0]).toMatch(/^404 null text\/html; charset=utf-8 <!DOCTYPE html>/);
    expect(new Set(shapes).size).toBe(1);

    // With ?shop= naming the shop: its home page, the same for all.
    const inShop = await Promise.all(codes.map((code) => get(`/r/${code}?shop=${shop.domain}&to=/products/x`)));
    for (const r of inShop) {
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe("https://store.example/");
    }
    // A shop we do not know is no better than none.
    const unknownShop = await get(`/r/${codes[0]}?shop=someone-else.myshopify.com`);
    expect(unknownShop.status).toBe(404);
    // Not a code at all.
    expect((await get("/r/a")).status).toBe(404);
    expect((await get("/r/has%20space")).status).toBe(404);
    expect((await get("/r/ABC/extra/more")).status).toBe(404);
    expect(await getDb().click.count()).toBe(0);
  });

  it("does not credit a code approved in several shops unless ?shop= picks one", async () => {
    const code = newCode("TWIN");
    const a = await shopWithAffiliate({ code });
    const b = await shopWithAffiliate({ code, url: "https://other-store.example" });
    expect((await get(`/r/${code}`)).status).toBe(404);
    expect(await getDb().click.count()).toBe(0);

    const res = await get(`/r/${code}?shop=${b.shop.domain.toUpperCase()}`);
    expect(res.status).toBe(302);
    const clickId = clickIdOf(res.headers.get("location")!);
    expect(res.headers.get("location")).toMatch(/^https:\/\/other-store\.example\/\?ref=/);
    const click = await getDb().click.findUniqueOrThrow({ where: { clickId } });
    expect(click.shopId).toBe(b.shop.id);
    expect(click.shopId).not.toBe(a.shop.id);
  });

  it("keeps a legacy /r/{CODE} link with its shop when another shop later makes the same code", async () => {
    const code = newCode("LEGACY");
    const first = await shopWithAffiliate({ code });
    const unique = newCode("ALONE");
    const alone = await shopWithAffiliate({ code: unique });
    // What the migration does with the codes there were when links began
    // to name their shop (the statement is the migration's own).
    const migration = readFileSync(
      path.join(
        process.cwd(),
        database.current().provider === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations",
        "20261128085725_legacy_link_codes/migration.sql",
      ),
      "utf8",
    );
    const backfill = migration.slice(migration.indexOf('INSERT INTO "LegacyLinkCode"'));
    await getDb().$executeRawUnsafe(backfill.replace(/;\s*$/, ""));
    expect(await getDb().legacyLinkCode.findUnique({ where: { code } })).toMatchObject({ shopId: first.shop.id });

    // Later another shop makes the same code: the old link stays with the first.
    const later = await shopWithAffiliate({ code, url: "https://later-store.example" });
    const res = await get(`/r/${code}?to=/products/x`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^https:\/\/store\.example\/products\/x\?ref=/);
    const click = await getDb().click.findUniqueOrThrow({
      where: { clickId: clickIdOf(res.headers.get("location")!) },
    });
    expect(click).toMatchObject({ shopId: first.shop.id, affiliateId: first.affiliate.id });
    // The later shop's own links name their shop and are its.
    const own = await get(`/r/${later.shop.domain.replace(".myshopify.com", "")}/${code}`);
    expect(own.status).toBe(302);
    expect(own.headers.get("location")).toMatch(/^https:\/\/later-store\.example\//);
    // A code one shop has still resolves without a record.
    expect((await get(`/r/${unique}`)).headers.get("location")).toMatch(/^https:\/\/store\.example\//);
    expect(await getDb().click.count({ where: { shopId: alone.shop.id } })).toBe(1);
  });

  it("ignores uninstalled shops", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    await getDb().shop.update({ where: { id: shop.id }, data: { uninstalledAt: new Date() } });
    expect((await get(`/r/${affiliate.referralCode}`)).status).toBe(404);
    expect(await getDb().click.count()).toBe(0);
  });

  it("records every click of a burst before answering it", async () => {
    const { affiliate } = await shopWithAffiliate();
    const responses = await Promise.all(Array.from({ length: 40 }, () => get(`/r/${affiliate.referralCode}`)));
    const ids = responses.map((r) => clickIdOf(r.headers.get("location")!));
    expect(new Set(ids).size).toBe(40);
    expect(await getDb().click.count({ where: { clickId: { in: ids } } })).toBe(40);
  });

  it("waits for the SQLite write lock without blocking the server", async () => {
    const target = parseDatabaseUrl(database.current().url);
    if (target.provider !== "sqlite") return; // PostgreSQL has row locks, no file lock
    const { affiliate } = await shopWithAffiliate();
    const locker = new Database(target.file);
    try {
      locker.exec("BEGIN IMMEDIATE"); // another writer holds the lock
      let answeredAt = 0;
      const pending = get(`/r/${affiliate.referralCode}`).then((r) => ((answeredAt = Date.now()), r));
      // Meanwhile the server keeps answering.
      expect((await get(`/r/${newCode("NOPE")}`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 100));
      expect(answeredAt).toBe(0); // not answered while the click cannot be committed
      const releasedAt = Date.now();
      locker.exec("COMMIT");
      const res = await pending;
      expect(answeredAt).toBeGreaterThanOrEqual(releasedAt);
      expect(res.status).toBe(302);
      const clickId = clickIdOf(res.headers.get("location")!);
      expect(await getDb().click.count({ where: { clickId } })).toBe(1);
    } finally {
      if (locker.inTransaction) locker.exec("ROLLBACK");
      locker.close();
    }
  });

  it("hands out links that name their shop, /r/{shop-handle}/{CODE}, and credits them in that shop", async () => {
    const code = newCode("TWIN");
    const a = await shopWithAffiliate({ code });
    const b = await shopWithAffiliate({ code, url: "https://other-store.example" });
    const handle = b.shop.domain.replace(".myshopify.com", "");
    const { affiliateLink } = await import("~/lib/affiliate-links");
    const link = new URL(affiliateLink(process.env.SHOPIFY_APP_URL!, code, b.shop.domain, "/products/x"));
    expect(link.pathname).toBe(`/r/${handle}/${code}`);
    expect(link.search).toBe("?to=%2Fproducts%2Fx");
    const res = await get(link.pathname + link.search);
    expect(res.status).toBe(302);
    const clickId = clickIdOf(res.headers.get("location")!);
    expect(res.headers.get("location")).toBe(
      `https://other-store.example/products/x?ref=${code}&_aff_click=${clickId}`,
    );
    expect((await getDb().click.findUniqueOrThrow({ where: { clickId } })).shopId).toBe(b.shop.id);
    // Either case of the handle, and of the code.
    expect((await get(`/r/${handle.toUpperCase()}/${code.toLowerCase()}`)).status).toBe(302);
    expect(await getDb().click.count({ where: { shopId: a.shop.id } })).toBe(0);
  });

  it("sends a click on an unknown or inactive code to the store when the link names the shop", async () => {
    const { shop, affiliate } = await shopWithAffiliate({ status: "denied" });
    const handle = shop.domain.replace(".myshopify.com", "");
    for (const code of [affiliate.referralCode, newCode("NOPE")]) {
      const res = await get(`/r/${handle}/${code}?to=/products/x`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("https://store.example/");
    }
    expect(await getDb().click.count()).toBe(0);
  });

  it("answers a link that leads nowhere with a friendly, translated HTML page, not bare text", async () => {
    for (const path of [`/r/${newCode("NOPE")}`, `/r/no-such-shop/${newCode("NOPE")}`, "/r/a"]) {
      const res = await get(path, { "accept-language": "en-GB,en;q=0.8" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await res.text();
      expect(html).toMatch(/^<!DOCTYPE html>/);
      expect(html).toContain('<html lang="en"');
      expect(html).toContain("This link does not lead anywhere");
    }
  });

  it("leaves other requests to the app", async () => {
    const res = await fetch(server.url("/r/"), { method: "POST", redirect: "manual" });
    expect(res.status).not.toBe(302);
    expect(await getDb().click.count()).toBe(0);
  });
});

// The app proxy: Shopify forwards https://{shop}/apps/affiliate/click to
// /proxy/click and signs the query with the app's secret.
async function signedProxyUrl(shopDomain: string, query: Record<string, string>) {
  const url = new URL(server.url("/proxy/click"));
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const store = shopDomain.replace(/\.myshopify\.com$/, "");
  const signed = await setUpValidRequest(
    { type: RequestType.Public, store, apiSecretKey: API_SECRET_KEY },
    new Request(url),
  );
  return signed.url;
}

describe("GET /proxy/click (app proxy)", () => {
  it("records a proxy click for the signed shop and answers its id", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const url = await signedProxyUrl(shop.domain, {
      code: affiliate.referralCode.toLowerCase(),
      landing: "https://store.example/products/x?ref=" + affiliate.referralCode,
      referrer: "https://social.example/",
    });
    const res = await fetch(url, {
      headers: { "user-agent": "Mozilla/5.0 (proxy test)", "x-forwarded-for": "203.0.113.9, 10.0.0.1" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { click_id: string | null };
    expect(body.click_id).toMatch(/^[A-Za-z0-9_-]{27}$/);
    const click = await getDb().click.findUniqueOrThrow({ where: { clickId: body.click_id! } });
    expect(click).toMatchObject({
      shopId: shop.id,
      affiliateId: affiliate.id,
      source: "proxy",
      landingUrl: `https://store.example/products/x?ref=${affiliate.referralCode}`,
      referrer: "https://social.example/",
      userAgent: "Mozilla/5.0 (proxy test)",
    });
    expect(click.ipHash).toHaveLength(32);
    expect(click.ipHash).not.toContain("203.0.113.9");
  });

  it("reads sub_id and utm_* from the page address of a ?ref= link", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const url = await signedProxyUrl(shop.domain, {
      code: affiliate.referralCode,
      landing: `https://store.example/collections/all?ref=${affiliate.referralCode}&sub_id=newsletter&utm_campaign=may`,
    });
    const body = (await (await fetch(url)).json()) as { click_id: string };
    const click = await getDb().click.findUniqueOrThrow({ where: { clickId: body.click_id } });
    expect(click).toMatchObject({ source: "proxy", subId: "newsletter", linkTags: '{"utm_campaign":"may"}' });
  });

  it("answers null for unknown and disabled codes, and for another shop's code", async () => {
    const { shop } = await shopWithAffiliate();
    const pending = await shopWithAffiliate({ status: "pending" });
    const other = await shopWithAffiliate();
    for (const [domain, code] of [
      [shop.domain, newCode("NOPE")],
      [pending.shop.domain, pending.affiliate.referralCode],
      [shop.domain, other.affiliate.referralCode], // the tenant is the signed shop
      [shop.domain, "not a code"],
    ] as const) {
      const res = await fetch(await signedProxyUrl(domain, { code, landing: "https://store.example/" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ click_id: null });
    }
    expect(await getDb().click.count()).toBe(0);
  });

  it("refuses a bad or missing signature and stores nothing", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const signed = new URL(
      await signedProxyUrl(shop.domain, { code: affiliate.referralCode, landing: "https://store.example/" }),
    );

    const tampered = new URL(signed);
    tampered.searchParams.set("landing", "https://evil.example/");
    const otherShop = new URL(signed);
    otherShop.searchParams.set("shop", "someone-else.myshopify.com");
    const badSignature = new URL(signed);
    badSignature.searchParams.set("signature", "0".repeat(64));
    const unsigned = new URL(signed);
    unsigned.searchParams.delete("signature");

    for (const url of [tampered, otherShop, badSignature, unsigned]) {
      const res = await fetch(url);
      expect([400, 401]).toContain(res.status);
    }
    expect(await getDb().click.count()).toBe(0);
  });
});

describe("POST /api/pixel/checkout-completed", () => {
  const post = (body: unknown, contentType = "application/json") =>
    fetch(server.url("/api/pixel/checkout-completed"), {
      method: "POST",
      headers: { "content-type": contentType, origin: "https://store.example" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("answers the CORS preflight", async () => {
    const res = await fetch(server.url("/api/pixel/checkout-completed"), {
      method: "OPTIONS",
      headers: {
        origin: "https://checkout.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
  });

  it("stores a report once per checkout token, filling in what a repeat adds", async () => {
    const { shop, affiliate } = await shopWithAffiliate();
    const click = await get(`/r/${affiliate.referralCode}`);
    const clickId = clickIdOf(click.headers.get("location")!);

    const first = await post({
      shop: shop.domain,
      checkout_token: "tok_abc123",
      click_id: clickId,
      ref: affiliate.referralCode.toLowerCase(),
    });
    expect(first.status).toBe(204);
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const again = await post(
      {
        shop: shop.domain,
        checkout_token: "tok_abc123",
        order_id: "gid://shopify/Order/123",
        click_id: clickId,
        ref: affiliate.referralCode,
      },
      "text/plain;charset=UTF-8",
    );
    expect(again.status).toBe(204);
    const third = await post({
      shop: shop.domain.toUpperCase(),
      checkout_token: "tok_abc123",
      order_id: "gid://shopify/OrderIdentity/123",
    });
    expect(third.status).toBe(204);

    const events = await getDb().pixelEvent.findMany({ where: { shopId: shop.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      checkoutToken: "tok_abc123",
      orderGid: "gid://shopify/Order/123",
      clickId,
      referralCode: affiliate.referralCode,
    });
  });

  it("keeps concurrent repeats to one row", async () => {
    const { shop } = await shopWithAffiliate();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post({ shop: shop.domain, checkout_token: "tok_race", order_id: 456 })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(204));
    const events = await getDb().pixelEvent.findMany();
    expect(events).toHaveLength(1);
    expect(events[0]!.orderGid).toBe("gid://shopify/Order/456");
  });

  it("does not keep another shop's click id", async () => {
    const { shop } = await shopWithAffiliate();
    const other = await shopWithAffiliate();
    const click = await get(`/r/${other.affiliate.referralCode}`);
    const foreign = clickIdOf(click.headers.get("location")!);
    expect((await post({ shop: shop.domain, checkout_token: "tok_x", click_id: foreign })).status).toBe(204);
    const event = await getDb().pixelEvent.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(event.clickId).toBeNull();
  });

  it("refuses a body that is not JSON with a 400 JSON error", async () => {
    const res = await post("{nope");
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("bad_request");
    expect(await getDb().pixelEvent.count()).toBe(0);
  });

  // Bad values are 422, as everywhere else (one status for bad input).
  it.each([
    ["an array", []],
    ["null", null],
    ["no shop", { checkout_token: "tok" }],
    ["a shop that is not a myshopify domain", { shop: "evil.example", checkout_token: "tok" }],
    ["no checkout token", { shop: "x.myshopify.com" }],
    ["an empty checkout token", { shop: "x.myshopify.com", checkout_token: " " }],
    ["a checkout token of the wrong type", { shop: "x.myshopify.com", checkout_token: 12 }],
    ["an odd checkout token", { shop: "x.myshopify.com", checkout_token: "tok abc" }],
    ["an invalid order id", { shop: "x.myshopify.com", checkout_token: "tok", order_id: "gid://shopify/Product/1" }],
    ["an invalid click id", { shop: "x.myshopify.com", checkout_token: "tok", click_id: "<script>" }],
    ["an invalid referral code", { shop: "x.myshopify.com", checkout_token: "tok", ref: "a b" }],
    ["a NUL byte", { shop: "x.myshopify.com", checkout_token: "tok\u0000" }],
  ])("refuses %s with a 422 JSON error", async (_name, body) => {
    const res = await post(JSON.stringify(body));
    expect(res.status).toBe(422);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("validation_failed");
    expect(await getDb().pixelEvent.count()).toBe(0);
  });

  it("refuses unknown and uninstalled shops", async () => {
    const { shop } = await shopWithAffiliate();
    await getDb().shop.update({ where: { id: shop.id }, data: { uninstalledAt: new Date() } });
    for (const domain of ["nobody-here.myshopify.com", shop.domain]) {
      const res = await post({ shop: domain, checkout_token: "tok" });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    expect(await getDb().pixelEvent.count()).toBe(0);
  });

  it("refuses a body that is too large", async () => {
    const res = await post({ shop: "x.myshopify.com", checkout_token: "tok", pad: "x".repeat(20_000) });
    expect(res.status).toBe(413);
  });
});
