import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { queueReferralWithdrawal } from "~/models/referrals/withdraw.server";
import { runFriendCodeJob } from "~/models/referrals/friend-codes.server";
import { buildReferralShop, setReferralProgram, signedProxyUrl } from "../support/referrals";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The storefront's refer-a-friend endpoints through the app proxy (signed
// the way Shopify signs them), over real HTTP against the built app, with
// friend codes made in the store simulator by the jobs.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const proxy = (domain: string, path: string, query: Record<string, string> = {}, customerId?: string) =>
  signedProxyUrl(server.url(""), domain, path, query, { customerId });

const askLinkAs = (
  domain: string,
  body: Record<string, string>,
  headers: Record<string, string> = {},
  customerId?: string,
) =>
  fetch(signedProxyUrl(server.url(""), domain, "referrals/advocate", {}, { customerId }), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** A visitor who is not signed in (the link goes by e-mail). */
const askLinkAnonymously = (domain: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  askLinkAs(domain, body, headers);

// A signed-in customer whose recorded order carries the e-mail: the one
// visitor the link is answered to.
let customerNumber = 0;
async function customerOf(domain: string, email: string): Promise<string> {
  const shop = await getDb().shop.findFirstOrThrow({ where: { domain } });
  const key = email.toLowerCase();
  const existing = await getDb().order.findFirst({
    where: { shopId: shop.id, customerEmail: key, customerGid: { not: null } },
    select: { customerGid: true },
  });
  if (existing) return existing.customerGid!.split("/").pop()!;
  const id = String(7_000_000 + ++customerNumber);
  await getDb().order.create({
    data: {
      shopId: shop.id,
      shopifyGid: `gid://shopify/Order/${id}`,
      name: `#${id}`,
      customerEmail: key,
      customerGid: `gid://shopify/Customer/${id}`,
      currency: "USD",
      subtotal: 1000,
      total: 1000,
      placedAt: new Date(),
    },
  });
  return id;
}

const askLink = async (domain: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  askLinkAs(domain, body, headers, body.email ? await customerOf(domain, body.email) : undefined);

const invite = (domain: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(proxy(domain, "referrals/invite", query), { headers });

// The store comes with the demo's discounts; these are the friend codes.
const discountsOf = (domain: string) =>
  sim.store.shop(domain).discounts.filter((d) => d.codes.some((c) => c.code.startsWith("FRIEND-")));
const codeCreates = () =>
  sim.graphqlRequests().filter((r) => /discountCode(Basic|FreeShipping)Create\(/.test(JSON.stringify(r.body))).length;

async function shop(program: NonNullable<Parameters<typeof buildReferralShop>[0]>["program"] = {}) {
  sim.reset();
  return buildReferralShop({ store: sim, program });
}

describe("the app proxy door", () => {
  it("refuses a bad signature (400) and a program that is off or not in the plan (403), changing nothing", async () => {
    const on = await shop();
    const tampered = new URL(proxy(on.domain, "referrals/widget"));
    tampered.searchParams.set("shop", "other.myshopify.com");
    expect((await fetch(tampered)).status).toBe(400);
    const unsigned = new URL(server.url("/proxy/referrals/advocate"));
    unsigned.searchParams.set("shop", on.domain);
    const post = await fetch(unsigned, { method: "POST", body: JSON.stringify({ email: "a@example.com" }) });
    expect(post.status).toBe(400);

    const off = await buildReferralShop({ program: { enabled: false } });
    const refused = await fetch(proxy(off.domain, "referrals/widget"));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: "forbidden", message: "Referrals are not available right now." },
    });
    expect((await askLink(off.domain, { email: "a@example.com" })).status).toBe(403);

    const free = await buildReferralShop({ pricingPlan: "free" });
    expect((await fetch(proxy(free.domain, "referrals/widget"))).status).toBe(403);
    expect((await fetch(proxy("nobody.myshopify.com", "referrals/widget"))).status).toBe(404);
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it("answers the widget's look and texts in the storefront's language", async () => {
    const s = await shop({ widget: { position: "bottom-left", color: "#aa3300" } });
    const res = await fetch(proxy(s.domain, "referrals/widget", { locale: "en" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const body = await res.json();
    expect(body).toMatchObject({
      lang: "en",
      widget: { position: "bottom-left", color: "#aa3300", textColor: "#ffffff" },
      loggedIn: false,
      reward: "10% off",
      texts: { button: "Refer a friend", title: "Give a discount, get a reward", submit: "Get my link" },
    });
    const de = await (await fetch(proxy(s.domain, "referrals/widget", { locale: "de-DE" }))).json();
    expect(de.lang).toBe("de");
    expect(de.texts.button).not.toBe("Refer a friend");
  });
});

describe("advocates (shared code)", () => {
  it("gives one advocate, one link and one code in Shopify to concurrent requests for one person", async () => {
    const s = await shop();
    const emails = [
      "Anna@Example.com",
      "anna@example.com",
      "anna+news@example.com",
      "ANNA@example.com",
      "anna@example.com",
    ];
    const anna = await customerOf(s.domain, "anna@example.com");
    const answers = await Promise.all(
      emails.map((email) => askLinkAs(s.domain, { email, firstName: "Anna" }, {}, anna)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.shareUrl)).size).toBe(1);
    expect(bodies[0].shareUrl).toMatch(
      new RegExp(`^https://${s.domain.replace(/\./g, "\\.")}/\\?invite=[a-z2-9]{10}$`),
    );
    expect(bodies[0]).toMatchObject({ friendCode: null, codePending: true, firstName: "Anna" });
    expect(await getDb().referralAdvocate.count()).toBe(1);

    await drainJobs();
    const advocate = await getDb().referralAdvocate.findFirstOrThrow();
    expect(advocate.customerGid).toBe(`gid://shopify/Customer/${anna}`);
    expect(advocate.friendCode).toMatch(/^FRIEND-[A-Z2-9]{8}$/);
    const codes = discountsOf(s.domain).flatMap((d) => d.codes.map((c) => c.code));
    expect(codes).toEqual([advocate.friendCode]);
    expect(discountsOf(s.domain)[0]).toMatchObject({
      value: { type: "percentage", percentage: 0.1 },
      usageLimit: null,
      appliesOncePerCustomer: true,
    });
    expect(advocate.friendDiscountGid).toBe(`gid://shopify/DiscountCodeNode/${discountsOf(s.domain)[0]!.id}`);

    // Later calls answer the code at once and queue nothing.
    const again = await (await askLink(s.domain, { email: "anna@example.com" })).json();
    expect(again).toMatchObject({ friendCode: advocate.friendCode, codePending: false });
    expect(await getDb().job.count({ where: { type: "referrals.friend-code", status: "queued" } })).toBe(0);
  });

  it("makes the code exactly once when a run crashed after Shopify made it", async () => {
    const s = await shop({ friendReward: { type: "free_shipping", value: 0, minimumOrder: 2500, expiryDays: 30 } });
    await askLink(s.domain, { email: "ben@example.com" });
    const advocate = await getDb().referralAdvocate.findFirstOrThrow();
    await runFriendCodeJob(getDb(), { advocateId: advocate.id });
    // The crash: Shopify has the code, the database never heard back.
    await getDb().referralAdvocate.update({
      where: { id: advocate.id },
      data: { friendCode: null, friendDiscountGid: null },
    });
    await drainJobs();
    await runFriendCodeJob(getDb(), { advocateId: advocate.id });
    expect(codeCreates()).toBe(1);
    const discounts = discountsOf(s.domain);
    expect(discounts).toHaveLength(1);
    expect(discounts[0]).toMatchObject({ value: { type: "free_shipping" }, minimumSubtotal: "25.00" });
    expect(discounts[0]!.endsAt).not.toBeNull();
    const stored = await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: advocate.id } });
    expect(stored.friendDiscountGid).toBe(`gid://shopify/DiscountCodeNode/${discounts[0]!.id}`);
  });

  it("refuses a bad e-mail (422), and people who never ordered when only customers may refer (403)", async () => {
    const s = await shop({ whoCanRefer: "customers" });
    expect((await askLinkAnonymously(s.domain, { email: "not-an-email" })).status).toBe(422);
    const refused = await askLinkAnonymously(s.domain, { email: "new@example.com" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe("Referral links are for customers who have ordered before.");
    await getDb().order.create({
      data: {
        shopId: s.id,
        shopifyGid: "gid://shopify/Order/1",
        name: "#1001",
        customerEmail: "old@example.com",
        currency: "USD",
        subtotal: 1000,
        total: 1000,
        placedAt: new Date(),
      },
    });
    expect((await askLinkAnonymously(s.domain, { email: "Old@Example.com" })).status).toBe(200);
    expect(await getDb().referralAdvocate.count()).toBe(1);
  });

  it("limits link requests per visitor address", async () => {
    const s = await shop();
    const headers = { "x-forwarded-for": "198.51.100.7" };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await askLinkAnonymously(s.domain, { email: `p${i}@example.com` }, headers)).status);
    expect(statuses.slice(0, 20).every((x) => x === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(
      (await askLinkAnonymously(s.domain, { email: "other@example.com" }, { "x-forwarded-for": "198.51.100.8" }))
        .status,
    ).toBe(200);
  });
});

describe("who is told the link", () => {
  it("sends it by e-mail to an anonymous visitor with an advocate's address, and answers nothing of theirs", async () => {
    const s = await shop();
    const own = await (await askLink(s.domain, { email: "kim@example.com", firstName: "Kim" })).json();
    await drainJobs();
    const advocate = await getDb().referralAdvocate.findFirstOrThrow();
    expect(own).toMatchObject({
      token: advocate.token,
      firstName: "Kim",
      shareUrl: expect.stringContaining("?invite="),
    });
    expect(advocate.friendCode).toBeTruthy();

    const stranger = await askLinkAnonymously(s.domain, { email: "Kim@Example.com" });
    expect(stranger.status).toBe(200);
    const text = await stranger.text();
    expect(JSON.parse(text)).toEqual({ sent: true });
    for (const secret of [advocate.token, "Kim", advocate.friendCode!]) expect(text).not.toContain(secret);
    // The owner of the address gets the link by e-mail, once an hour whoever asks.
    await askLinkAnonymously(s.domain, { email: "kim@example.com" });
    const mails = await getDb().outboxEmail.findMany({ where: { kind: "advocate.share_link" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe("kim@example.com");
    expect(mails[0]!.subject).toBe(`Your share link for ${s.name}`);
    expect(mails[0]!.text).toContain(`?invite=${advocate.token}`);

    // A signed-in customer typing someone else's address is no different.
    const other = await customerOf(s.domain, "lou@example.com");
    const typed = await askLinkAs(s.domain, { email: "kim@example.com" }, {}, other);
    expect(await typed.json()).toEqual({ sent: true });
    // A new address: an advocate is made and told by e-mail.
    expect(await (await askLinkAnonymously(s.domain, { email: "new@example.com" })).json()).toEqual({ sent: true });
    expect(await getDb().outboxEmail.count({ where: { toAddress: "new@example.com" } })).toBe(1);
  });

  it("does not make a withdrawn advocate active again from an anonymous call; the signed-in customer can", async () => {
    const s = await shop();
    await askLink(s.domain, { email: "mia@example.com" });
    const mia = await getDb().referralAdvocate.findFirstOrThrow();
    await getDb().$transaction((tx) => queueReferralWithdrawal(tx, s.id, mia.id));
    await drainJobs();
    expect((await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: mia.id } })).disabledAt).not.toBeNull();

    const anonymous = await askLinkAnonymously(s.domain, { email: "mia@example.com" });
    expect(await anonymous.json()).toEqual({ sent: true });
    const still = await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: mia.id } });
    expect(still.disabledAt).not.toBeNull();
    expect(await getDb().outboxEmail.count({ where: { kind: "advocate.share_link" } })).toBe(0);
    expect((await invite(s.domain, { token: mia.token })).status).toBe(404);

    const signedIn = await (await askLink(s.domain, { email: "mia@example.com" })).json();
    expect(signedIn).toMatchObject({ token: mia.token });
    expect((await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: mia.id } })).disabledAt).toBeNull();
  });
});

describe("friends", () => {
  it("answers an unknown or withdrawn link with a clear 404", async () => {
    const s = await shop();
    for (const token of ["abcdefghjk", "NOT A TOKEN", ""]) {
      const res = await invite(s.domain, { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        error: { code: "not_found", message: "This invitation link is no longer valid." },
      });
    }
  });

  it("shows the shared code once it exists, and records a visit only when asked to (with consent)", async () => {
    const s = await shop();
    const { token } = await (await askLink(s.domain, { email: "cara@example.com", firstName: "Cara" })).json();
    const device = "dev_0123456789abcdefXYZ";
    const first = await invite(s.domain, { token, device, visit: "1" }, { "x-forwarded-for": "203.0.113.5" });
    expect(await first.json()).toMatchObject({ status: "pending", code: null, token });
    await drainJobs();
    const ready = await (await invite(s.domain, { token, device, visit: "0" })).json();
    const advocate = await getDb().referralAdvocate.findFirstOrThrow();
    expect(ready).toMatchObject({
      status: "ready",
      code: advocate.friendCode,
      texts: { title: "A friend sent you a discount", reward: "10% off", apply: "Apply to my cart" },
    });
    const visits = await getDb().referralVisit.findMany();
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ advocateId: advocate.id, deviceId: device });
    expect(visits[0]!.ipHash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(visits)).not.toContain("203.0.113.5");
  });

  it("gives each device its own single-use code (the same one when it asks again), made in Shopify once", async () => {
    const s = await shop({ codeMode: "unique" });
    const { token } = await (await askLink(s.domain, { email: "dan@example.com" })).json();
    const a = "device_aaaaaaaaaaaaaaaa";
    const b = "device_bbbbbbbbbbbbbbbb";
    const [a1, a2] = await Promise.all([
      invite(s.domain, { token, device: a }),
      invite(s.domain, { token, device: a }),
    ]);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    expect((await a1.json()).status).toBe("pending");
    await invite(s.domain, { token, device: b });
    expect(await getDb().referralFriendCode.count()).toBe(2);
    await drainJobs();
    await drainJobs();
    const codeA = (await (await invite(s.domain, { token, device: a })).json()).code;
    const codeB = (await (await invite(s.domain, { token, device: b })).json()).code;
    expect(codeA).toMatch(/^FRIEND-[A-Z2-9]{12}$/);
    expect(codeB).toMatch(/^FRIEND-[A-Z2-9]{12}$/);
    expect(codeA).not.toBe(codeB);
    expect((await (await invite(s.domain, { token, device: a })).json()).code).toBe(codeA);
    const discounts = discountsOf(s.domain);
    expect(discounts.map((d) => d.codes[0]!.code).sort()).toEqual([codeA, codeB].sort());
    expect(discounts.every((d) => d.usageLimit === 1)).toBe(true);
    expect(codeCreates()).toBe(2);
  });
});

describe("rate limits behind Shopify's proxy", () => {
  it("count by the address Shopify's proxy appended: rotating the first X-Forwarded-For entry passes no cap", async () => {
    const s = await shop({ codeMode: "unique" });
    const { token } = await (await askLink(s.domain, { email: "rotor@example.com" })).json();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      // A new device and a new made-up first entry each time; the last entry
      // (what Shopify appends) is the visitor's real address.
      const device = `rotating_device_${String(i).padStart(4, "0")}`;
      const headers = { "x-forwarded-for": `10.${i}.0.1, 192.0.2.${i}, 198.51.100.77` };
      statuses.push((await invite(s.domain, { token, device }, headers)).status);
    }
    expect(statuses.slice(0, 30).every((x) => x === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(await getDb().referralFriendCode.count()).toBe(30);
    // Another visitor (another appended address) is not held up.
    const other = await invite(
      s.domain,
      { token, device: "another_device_0000" },
      { "x-forwarded-for": "10.0.0.1, 198.51.100.78" },
    );
    expect(other.status).toBe(200);
  });
});

describe("withdrawal", () => {
  it("deletes the codes of a withdrawn program in Shopify, and the links stop working", async () => {
    const s = await shop();
    const { token } = await (await askLink(s.domain, { email: "eve@example.com" })).json();
    await askLink(s.domain, { email: "fay@example.com" });
    await drainJobs();
    expect(discountsOf(s.domain)).toHaveLength(2);
    // A unique code of an earlier mode, made too.
    await setReferralProgram(s.id, { codeMode: "unique" });
    await invite(s.domain, { token, device: "device_cccccccccccccccc" });
    await drainJobs();
    expect(discountsOf(s.domain)).toHaveLength(3);

    await getDb().$transaction((tx) => queueReferralWithdrawal(tx, s.id));
    expect((await invite(s.domain, { token })).status).toBe(404);
    await drainJobs();
    expect(discountsOf(s.domain)).toEqual([]);
    const advocates = await getDb().referralAdvocate.findMany();
    expect(advocates.every((a) => a.disabledAt && !a.friendDiscountGid)).toBe(true);
    // Safe to run again: nothing left to delete, no error.
    await getDb().$transaction((tx) => queueReferralWithdrawal(tx, s.id));
    await drainJobs();
    expect(await getDb().job.count({ where: { status: { not: "done" } } })).toBe(0);
  });

  it("withdraws one advocate only", async () => {
    const s = await shop();
    await askLink(s.domain, { email: "gil@example.com" });
    await askLink(s.domain, { email: "hal@example.com" });
    await drainJobs();
    const gil = await getDb().referralAdvocate.findFirstOrThrow({ where: { emailKey: "gil@example.com" } });
    const hal = await getDb().referralAdvocate.findFirstOrThrow({ where: { emailKey: "hal@example.com" } });
    await getDb().$transaction((tx) => queueReferralWithdrawal(tx, s.id, gil.id));
    await drainJobs();
    expect(discountsOf(s.domain).map((d) => d.codes[0]!.code)).toEqual([hal.friendCode]);
  });
});

describe("the customer's page", () => {
  it("asks a visitor to log in, and shows a customer their link, friends (masked) and rewards", async () => {
    const s = await shop();
    const anonymous = await fetch(proxy(s.domain, "referrals/account"));
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await anonymous.text()).toContain("Log in to your account to see your referrals.");

    const customer = "9001";
    await getDb().order.create({
      data: {
        shopId: s.id,
        shopifyGid: "gid://shopify/Order/7",
        name: "#1007",
        customerEmail: "ivy@example.com",
        customerGid: `gid://shopify/Customer/${customer}`,
        currency: "USD",
        subtotal: 5000,
        total: 5000,
        placedAt: new Date(),
      },
    });
    const before = await (await fetch(proxy(s.domain, "referrals/account", {}, customer))).text();
    expect(before).toContain("You do not have a share link yet.");
    const join = await fetch(proxy(s.domain, "referrals/account", {}, customer), {
      method: "POST",
      redirect: "manual",
    });
    expect(join.status).toBe(303);
    expect(join.headers.get("location")).toBe("/apps/affiliate/referrals/account");
    const advocate = await getDb().referralAdvocate.findFirstOrThrow();
    expect(advocate).toMatchObject({
      email: "ivy@example.com",
      customerGid: `gid://shopify/Customer/${customer}`,
      source: "account",
    });

    const referral = (friendEmail: string, status: string, n: number) => ({
      shopId: s.id,
      advocateId: advocate.id,
      orderGid: `gid://shopify/Order/${100 + n}`,
      orderName: `#${1100 + n}`,
      friendEmail,
      source: "link",
      reason: "share link",
      currency: "USD",
      orderTotal: 4000,
      status,
      holdUntil: new Date(),
      rewardKind: "store_credit",
      rewardValue: 1000,
      rewardCurrency: "USD",
      placedAt: new Date(Date.UTC(2026, 10, 20 + n)),
    });
    await getDb().referral.createMany({
      data: [referral("jules.friend@example.org", "rewarded", 1), referral("kim@example.net", "pending", 2)],
    });
    const page = await (await fetch(proxy(s.domain, "referrals/account", {}, customer))).text();
    expect(page).toContain(`?invite=${advocate.token}`);
    expect(page).toContain("ju***@ex***.org");
    expect(page).toContain("ki***@ex***.net");
    expect(page).not.toContain("jules.friend@example.org");
    expect(page).toContain("Rewarded");
    expect(page).toContain("$10.00");
    expect(page).toMatch(/Rewards earned: <strong>1<\/strong>/);

    // Another customer never sees Ivy's page.
    const other = await (await fetch(proxy(s.domain, "referrals/account", {}, "9002"))).text();
    expect(other).not.toContain(advocate.token);
  });
});
