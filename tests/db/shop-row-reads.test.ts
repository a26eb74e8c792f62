import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { shopRowReads } from "~/db/shop-row-reads.server";
import { paymentSettingsOf, withPaymentSettings } from "~/models/payouts/payment-settings";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { recordingStatements } from "../support/recording-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A read-only request's reads of its own shop's row are answered from the row
// the door loaded (app/db/shop-row-reads.server.ts): the same answers as the
// database gives, no statement, a copy per caller, and nothing kept from one
// request to the next.

applyTestEnv();
useTestDatabase();
const server = useTestServer();

async function clients() {
  const shop = await buildShop();
  const other = await buildShop();
  const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
  const seen: string[] = [];
  const plain = shopDb(getDb(), shop.id);
  const reads = shopRowReads(recordingStatements(plain, seen) as typeof plain, row);
  return { shop, other, plain, reads, seen };
}

type Read = (db: ReturnType<typeof shopDb>, ids: { shop: string; other: string }) => Promise<unknown>;

const ANSWERED: [string, Read][] = [
  [
    "findUnique by id, one column",
    (db, { shop }) => db.shop.findUnique({ where: { id: shop }, select: { settings: true } }),
  ],
  [
    "findUniqueOrThrow by id, two columns",
    (db, { shop }) => db.shop.findUniqueOrThrow({ where: { id: shop }, select: { currency: true, timezone: true } }),
  ],
  ["findUnique by id, the whole row", (db, { shop }) => db.shop.findUnique({ where: { id: shop } })],
  ["findFirst with no filter", (db) => db.shop.findFirst({ select: { pricingPlan: true, currency: true } })],
  ["findFirstOrThrow with no filter", (db) => db.shop.findFirstOrThrow({ select: { id: true, domain: true } })],
  [
    "a column set to false is left out",
    (db, { shop }) => db.shop.findUnique({ where: { id: shop }, select: { currency: true, settings: false } }),
  ],
];

const PASSED_ON: [string, Read][] = [
  ["another shop's id", (db, { other }) => db.shop.findUnique({ where: { id: other }, select: { currency: true } })],
  [
    "a filter besides the id",
    (db, { shop }) => db.shop.findFirst({ where: { id: shop, currency: "USD" }, select: { currency: true } }),
  ],
  [
    "a relation",
    (db, { shop }) =>
      db.shop.findUnique({ where: { id: shop }, select: { currency: true, users: { select: { id: true } } } }),
  ],
  [
    "a count",
    (db, { shop }) => db.shop.findUnique({ where: { id: shop }, select: { _count: { select: { users: true } } } }),
  ],
  ["an include", (db, { shop }) => db.shop.findUnique({ where: { id: shop }, include: { users: true } })],
  ["findMany", (db) => db.shop.findMany({ select: { currency: true } })],
];

describe("reads of the shop's own row in a read-only request", () => {
  it.each(ANSWERED)("answers %s from the row, as the database would", async (_name, read) => {
    const { shop, other, plain, reads, seen } = await clients();
    const ids = { shop: shop.id, other: other.id };
    const answer = await read(reads, ids);
    expect(seen).toEqual([]);
    expect(answer).toEqual(await read(plain, ids));
  });

  it.each(PASSED_ON)("sends %s to the database", async (_name, read) => {
    const { shop, other, plain, reads, seen } = await clients();
    const ids = { shop: shop.id, other: other.id };
    const answer = await read(reads, ids);
    expect(seen).toEqual([expect.stringMatching(/^shop\./)]);
    expect(answer).toEqual(await read(plain, ids));
  });

  it("gives every caller its own copy", async () => {
    const { shop, reads } = await clients();
    // The row's columns are text, numbers and dates: a date is the one a caller could change.
    const first = await reads.shop.findUniqueOrThrow({ where: { id: shop.id }, select: { createdAt: true } });
    const created = first.createdAt.getTime();
    first.createdAt.setUTCFullYear(1999);
    const second = await reads.shop.findUniqueOrThrow({ where: { id: shop.id }, select: { createdAt: true } });
    expect(second.createdAt.getTime()).toBe(created);
  });

  it("leaves other models and writes to the database", async () => {
    const { shop, reads, seen } = await clients();
    await reads.affiliate.findMany({ select: { id: true } });
    await reads.shop.update({ where: { id: shop.id }, data: { name: "Renamed" } });
    expect(seen).toEqual(["affiliate.findMany", "shop.update"]);
  });

  it("answers from a part of the row only what that part holds (the affiliate's door loads a few columns)", async () => {
    const { shop, plain } = await clients();
    const part = await getDb().shop.findUniqueOrThrow({
      where: { id: shop.id },
      select: { id: true, currency: true, settings: true },
    });
    const seen: string[] = [];
    const reads = shopRowReads(recordingStatements(plain, seen) as typeof plain, part);
    const inPart = await reads.shop.findUnique({ where: { id: shop.id }, select: { currency: true } });
    expect(seen).toEqual([]);
    const beyond = await reads.shop.findUnique({ where: { id: shop.id }, select: { currency: true, timezone: true } });
    const whole = await reads.shop.findUnique({ where: { id: shop.id } });
    expect(seen).toEqual(["shop.findUnique", "shop.findUnique"]);
    expect(inPart).toEqual({ currency: shop.currency });
    expect(beyond).toEqual({ currency: shop.currency, timezone: shop.timezone });
    expect(whole).toEqual(await plain.shop.findUnique({ where: { id: shop.id } }));
  });

  it("refuses a row of another shop", async () => {
    const { other, plain } = await clients();
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: other.id } });
    expect(() => shopRowReads(plain, row)).toThrow();
  });

  it("answers each request from that request's row (a page sees a setting saved in between)", async () => {
    const { shop } = await clients();
    const email = "owner@row-reads.example";
    await buildUser(shop.id, { role: "admin", email });
    const admin = new HttpClient(server.url);
    expect((await admin.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
    const minimum = async () => {
      const res = await admin.get(`/admin/payouts?_data=${encodeURIComponent("routes/$role.payouts._index")}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { belowMinimum: { minimum: number } }).belowMinimum.minimum;
    };
    const setMinimum = async (amount: number) => {
      const { settings } = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
      await getDb().shop.update({
        where: { id: shop.id },
        data: { settings: withPaymentSettings(settings, { ...paymentSettingsOf(settings), minimumAmount: amount }) },
      });
    };
    await setMinimum(2500);
    expect(await minimum()).toBe(2500);
    await setMinimum(7000);
    expect(await minimum()).toBe(7000);
  });
});
