import { describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { getDb } from "~/db.server";
import { dispatchEvent } from "~/worker/dispatch-event.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useSmtpSink } from "../support/smtp-sink";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Notifications end to end: a change in the app → its domain event → the
// e-mail subscriber → the outbox → the e-mail job → a real SMTP server on
// loopback, which parses what arrived.
applyTestEnv({ MAIL_FROM: "Affiliates <affiliates@app.example>" });
const smtp = useSmtpSink();
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

const LIST = "routes/$role.affiliates._index";
const addressOf = (mail: ParsedMail) => (mail.to && "text" in mail.to ? mail.to.text : "");
const mailTo = (address: string) => smtp.received.filter((m) => addressOf(m) === address);

async function settle() {
  await drainJobs();
  await new Promise((r) => setTimeout(r, 50));
}

async function adminOf(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

describe("notification e-mails over SMTP", () => {
  it("tells the merchant about a sign-up waiting, and the affiliate that it was received", async () => {
    smtp.received.length = 0;
    const shop = await buildShop();
    await buildCampaign(shop.id);
    await getDb().campaign.updateMany({ where: { shopId: shop.id }, data: { isDefault: true } });
    const handle = shop.domain.replace(".myshopify.com", "");
    const signup = await new HttpClient(server.url).postForm(`/portal/${handle}/signup`, {
      firstName: "Ada",
      lastName: "Lind",
      email: "ada@aff.example",
      password: "first password 1",
      terms: "on",
    });
    expect(signup.status).toBe(200);
    await settle();
    const [merchant] = mailTo(shop.adminEmail);
    expect(merchant?.subject).toBe("New affiliate waiting for approval: Ada Lind");
    expect(merchant?.text).toContain("ada@aff.example");
    expect(merchant?.html).toContain("Ada Lind (ada@aff.example)");
    expect(merchant?.from?.value[0]).toMatchObject({ name: shop.name, address: "affiliates@app.example" });
    const [affiliate] = mailTo("ada@aff.example");
    expect(affiliate?.subject).toBe(`We received your application to ${shop.name}`);
    // Non-transactional: the RFC 8058 headers.
    // Unfolded (a long header line continues on the next with leading white space).
    const raw = (name: string) =>
      (affiliate?.headerLines.find((h) => h.key === name)?.line ?? "").replace(/\r?\n\s+/g, " ");
    expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(raw("list-unsubscribe")).toMatch(/^List-Unsubscribe: <https?:\/\/\S+\/mail\/preferences\?\S+>$/);
    const rows = await getDb().outboxEmail.findMany({ where: { shopId: shop.id } });
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);

    // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" to the header's URL.
    const unsubscribeUrl = new URL(/<(\S+)>/.exec(raw("list-unsubscribe"))![1]!);
    const forged = new URL(unsubscribeUrl);
    forged.searchParams.set("a", "someone-else@aff.example");
    const refused = await new HttpClient(server.url).postForm(`${forged.pathname}${forged.search}`, {
      "List-Unsubscribe": "One-Click",
    });
    expect(refused.status).toBe(404);
    const oneClick = await new HttpClient(server.url).postForm(`${unsubscribeUrl.pathname}${unsubscribeUrl.search}`, {
      "List-Unsubscribe": "One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await getDb().mailOptOut.findMany({ select: { address: true, kind: true } })).toEqual([
      { address: "ada@aff.example", kind: "affiliate.signup" },
    ]);
  });

  it("sends 'approved' in the affiliate's language after a bulk approval, once even when the event is replayed", async () => {
    smtp.received.length = 0;
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const de = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "klara@aff.example" });
    await getDb().affiliate.update({ where: { id: de.id }, data: { language: "de", firstName: "Klara" } });
    const en = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "sam@aff.example" });
    const admin = await adminOf(shop.id);
    const res = await admin.postForm(`/admin/affiliates?index&_data=${encodeURIComponent(LIST)}`, {
      intent: "status",
      action: "approve",
      ids: `${de.id},${en.id}`,
    });
    expect(res.status).toBe(200);
    await settle();
    const [german] = mailTo("klara@aff.example");
    expect(german?.subject).toBe(`Willkommen im Partnerprogramm von ${shop.name}`);
    expect(german?.text).toContain("Hallo Klara,");
    // The link Settings › Promote link puts first (the short link by default), as the Links page shows it.
    expect(german?.text).toContain(
      `${process.env.SHOPIFY_APP_URL!.replace(/\/$/, "")}/r/${shop.domain.replace(".myshopify.com", "")}/${de.referralCode}`,
    );
    expect(german?.text).not.toContain(`${shop.url}/?ref=`);
    expect(german?.html).toContain('lang="de"');
    expect(mailTo("sam@aff.example")[0]?.subject).toBe(`Welcome to the ${shop.name} affiliate program`);
    // The same events handed over again: nothing new is queued or sent.
    const events = await getDb().domainEvent.findMany({ where: { shopId: shop.id, type: "affiliate.approved" } });
    expect(events).toHaveLength(2);
    for (const event of events) await dispatchEvent(event.id);
    await settle();
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id } })).toBe(2);
    expect(smtp.received).toHaveLength(2);
  });

  it("e-mails a staff invite whose link sets a password", async () => {
    smtp.received.length = 0;
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const res = await admin.postForm(
      `/admin/settings/staff?_data=${encodeURIComponent("routes/$role.settings.staff")}`,
      {
        intent: "invite",
        email: "lee@staff.example",
        name: "Lee Park",
        permissions: "affiliates",
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    await settle();
    const [invite] = mailTo("lee@staff.example");
    expect(invite?.subject).toBe(`You are invited to manage the ${shop.name} affiliate program`);
    // Transactional: no unsubscribe.
    expect(invite?.headerLines.some((h) => h.key.startsWith("list-unsubscribe"))).toBe(false);
    const link = /https?:\/\/\S+\/staff\/get-password\?token=[A-Za-z0-9_%-]+/.exec(invite?.text ?? "")?.[0];
    expect(link, invite?.text).toBeDefined();
    const url = new URL(link!);
    const page = await new HttpClient(server.url).get(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    const set = await new HttpClient(server.url).postForm(`${url.pathname}${url.search}`, {
      token: url.searchParams.get("token")!,
      password: "a long new password 1",
      confirm: "a long new password 1",
    });
    expect([200, 302, 303]).toContain(set.status);
    expect(
      (await getDb().user.findFirstOrThrow({ where: { email: "lee@staff.example" } })).passwordHash,
    ).not.toBeNull();
  });

  it("records the SMTP server's refusal in the delivery log", async () => {
    smtp.received.length = 0;
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const a = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "nope@aff.example" });
    smtp.reject = { code: 550, message: "No such mailbox here" };
    try {
      const admin = await adminOf(shop.id);
      await admin.postForm(`/admin/affiliates?index&_data=${encodeURIComponent(LIST)}`, {
        intent: "status",
        action: "deny",
        ids: a.id,
      });
      await settle();
    } finally {
      smtp.reject = null;
    }
    const row = await getDb().outboxEmail.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(row.status).toBe("failed");
    expect(row.lastError).toContain("550");
    expect(row.lastError).toContain("No such mailbox here");
    expect(row.attempts).toBe(1);
  });
});

describe("e-mails sent in batches", () => {
  it("retries a temporary refusal with backoff, then sends each e-mail of the batch once", async () => {
    smtp.received.length = 0;
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliates = await Promise.all(
      [1, 2, 3].map((n) => buildAffiliate(shop.id, campaign.id, { status: "pending", email: `batch${n}@aff.example` })),
    );
    const admin = await adminOf(shop.id);
    smtp.reject = { code: 451, message: "Try again later" };
    try {
      await admin.postForm(`/admin/affiliates?index&_data=${encodeURIComponent(LIST)}`, {
        intent: "status",
        action: "approve",
        ids: affiliates.map((a) => a.id).join(","),
      });
      await settle();
    } finally {
      smtp.reject = null;
    }
    const db = getDb();
    const rows = await db.outboxEmail.findMany({ where: { shopId: shop.id } });
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.status).toBe("retrying");
      expect(row.attempts).toBe(1);
      expect(row.lastError).toContain("451");
    }
    const jobs = await db.job.findMany({
      where: { type: "email.send", payload: { in: rows.map((r) => JSON.stringify({ id: r.id })) } },
    });
    expect(jobs).toHaveLength(3);
    for (const job of jobs) {
      expect(job.status).toBe("queued");
      expect(job.runAt.getTime()).toBeGreaterThan(Date.now());
    }
    // The backoff has passed.
    await db.job.updateMany({ where: { id: { in: jobs.map((j) => j.id) } }, data: { runAt: new Date() } });
    await settle();
    expect(smtp.received.filter((m) => /batch\d@aff\.example/.test(addressOf(m)))).toHaveLength(3);
    for (const row of await db.outboxEmail.findMany({ where: { shopId: shop.id } })) {
      expect(row.status).toBe("sent");
      expect(row.attempts).toBe(2);
      expect(row.lastError).toBeNull();
      expect(row.sentAt).not.toBeNull();
    }
    // A job run again for a row already sent (a crash after the mark) sends nothing.
    await db.job.updateMany({
      where: { id: { in: jobs.map((j) => j.id) } },
      data: { status: "queued", runAt: new Date() },
    });
    await settle();
    expect(smtp.received.filter((m) => /batch\d@aff\.example/.test(addressOf(m)))).toHaveLength(3);
    expect(await db.job.count({ where: { id: { in: jobs.map((j) => j.id) }, status: "done" } })).toBe(3);
  });
});

describe("refund e-mail over SMTP", () => {
  const SHOP = "refund-mail.myshopify.com";

  async function deliver(topic: string, body: string) {
    const res = await new HttpClient(server.url).request("/webhooks", {
      method: "POST",
      body,
      headers: webhookHeaders(topic, SHOP, body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await settle();
  }

  it("tells the affiliate their commission was reduced by a refund, with the amounts", async () => {
    smtp.received.length = 0;
    const shop = await getDb().shop.create({
      data: {
        domain: SHOP,
        name: "Refund shop",
        url: `https://${SHOP}`,
        adminEmail: "o@refund.example",
        pricingPlan: "growth",
      },
    });
    const campaign = await getDb().campaign.create({
      data: {
        shopId: shop.id,
        name: "Main",
        status: "active",
        commissionType: "percent",
        commissionValue: 1000,
        cookieDays: 30,
      },
    });
    const anna = await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: "anna@aff.example",
        firstName: "Anna",
        lastName: "Test",
        status: "approved",
        referralCode: "ANNA",
      },
    });
    await getDb().coupon.create({ data: { shopId: shop.id, affiliateId: anna.id, code: "ANNA10" } });
    await deliver(
      "orders/create",
      fixtureWith("orders_create.json", (o) => {
        o.cancelled_at = null;
        o.order_status_url = orderStatusUrl(SHOP);
        o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
      }),
    );
    const [earned] = mailTo("anna@aff.example");
    expect(earned?.subject).toMatch(/^New commission: \$\d+\.\d\d$/);
    await deliver(
      "refunds/create",
      fixtureWith("refunds_create.json", (r) => {
        r.refund_line_items = r.refund_line_items.slice(0, 2);
      }),
    );
    const lines = await getDb().commission.findMany({ where: { affiliateId: anna.id }, orderBy: { createdAt: "asc" } });
    expect(lines.map((l) => l.kind)).toEqual(["sale", "refund"]);
    const [sale, refund] = lines as [(typeof lines)[0], (typeof lines)[0]];
    const usd = (minor: number) =>
      new Intl.NumberFormat("en", { style: "currency", currency: "USD" }).format(minor / 100);
    const reversed = mailTo("anna@aff.example").find((m) => m.subject?.includes("has changed"));
    expect(reversed?.text).toContain(
      `your commission changed by ${usd(refund.amount)}: from ${usd(sale.amount)} to ${usd(sale.amount + refund.amount)}`,
    );
    expect(refund.amount).toBeLessThan(0);
  });
});
