import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { parseSimulateArgs, referralOrderOptions } from "~/cli/simulate-referral";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { DEFAULT_REFERRAL_PROGRAM } from "~/models/referrals/program-settings";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// `npm run simulate -- referral ...` end to end: the friend's checkout in the
// store simulator reaches the running app as signed orders/create and
// orders/paid webhooks carrying the friend code and the invite attributes;
// and the thank-you block of that order waits for the order, then (once
// STOREFRONT's ensureAdvocate is merged) gets the buyer's own share link.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const SHOP = "friend-order-shop.myshopify.com";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

async function installedShop() {
  return getDb().shop.create({
    data: {
      domain: SHOP,
      name: "Friends",
      url: `https://${SHOP}`,
      adminEmail: `owner@${SHOP}`,
      pricingPlan: "growth",
      settings: JSON.stringify({ referrals: { ...DEFAULT_REFERRAL_PROGRAM, enabled: true } }),
    },
  });
}

async function askForLink(orderId: string, email: string) {
  const { token } = await getJwt(SHOP.replace(".myshopify.com", ""), API_KEY, API_SECRET_KEY, {
    dest: SHOP,
    sub: undefined,
  });
  const res = await fetch(server.url("/api/checkout/referral-link"), {
    method: "POST",
    headers: { "user-agent": BROWSER, authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ orderId, email }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const cli = (...args: string[]) => referralOrderOptions(parseSimulateArgs(["referral", ...args]).values);

describe("npm run simulate -- referral, against the running app", () => {
  it("delivers the friend's order as signed webhooks with the code and the invite, and the app records it", async () => {
    const shop = await installedShop();
    const placed = await sim.store.placeOrder(
      SHOP,
      cli("--friend-code", "FRIEND10", "--invite", "abc234defg", "--device", "dev_1", "--customer", "fay@example.net"),
    );
    expect(placed.deliveries.map((d) => [d.topic, d.status])).toEqual([
      ["orders/create", 200],
      ["orders/paid", 200],
    ]);
    const stored = await getDb().webhookEvent.findFirstOrThrow({ where: { shopDomain: SHOP, topic: "orders/create" } });
    const payload = JSON.parse(stored.payload) as {
      note_attributes: { name: string; value: string }[];
      discount_codes: { code: string }[];
      landing_site: string;
    };
    expect(payload.note_attributes).toEqual([
      { name: "_referral_invite", value: "abc234defg" },
      { name: "_referral_device", value: "dev_1" },
    ]);
    expect(payload.discount_codes.map((d) => d.code)).toEqual(["FRIEND10"]);
    expect(payload.landing_site).toBe("/?invite=abc234defg");

    // The thank-you block asks before the worker has recorded the order: wait.
    const orderId = `gid://shopify/Order/${placed.order.id}`;
    expect(await askForLink(orderId, "fay@example.net")).toEqual({ status: "pending", retryAfterMs: 3000 });
    await drainJobs();
    expect(await getDb().order.findFirstOrThrow({ where: { shopId: shop.id, shopifyGid: orderId } })).toMatchObject({
      customerEmail: "fay@example.net",
    });
  });

  it("then gives the friend, now a customer, a share link of their own", async () => {
    await installedShop();
    const placed = await sim.store.placeOrder(SHOP, cli("--friend-code", "FRIEND10", "--customer", "gus@example.net"));
    await drainJobs();
    const answer = await askForLink(`gid://shopify/Order/${placed.order.id}`, "gus@example.net");
    expect(answer).toMatchObject({ status: "ready", shareUrl: expect.stringContaining(`https://${SHOP}/?invite=`) });
  });
});
