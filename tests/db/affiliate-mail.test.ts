import type { ParsedMail } from "mailparser";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildCampaign, buildShop } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useSmtpSink } from "../support/smtp-sink";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Password reset e-mails over real SMTP: an SMTP sink on loopback
// (smtp-server) receives what the e-mail job sends after the commit, and the
// link in it resets the password once.
applyTestEnv({ MAIL_FROM: "Velo affiliates <affiliates@velo.example>" });
const received = useSmtpSink().received;
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

// The reset e-mails among what arrived (sign-ups also notify the affiliate now).
const resets = () => received.filter((mail) => /\/reset\?token=/.test(mail.text ?? ""));

let handle: string;
let shopId: string;
async function openShop(language = "en") {
  const shop = await buildShop({ language });
  handle = shop.domain.replace(".myshopify.com", "");
  shopId = shop.id;
  const campaign = await buildCampaign(shop.id);
  await getDb().campaign.update({ where: { id: campaign.id }, data: { autoApproveAffiliates: true } });
}
beforeEach(async () => {
  received.length = 0;
  await openShop();
});

/** Signs up (in a language picked on the page, or none), asks for a reset link, and returns the e-mail sent. */
async function resetMail(language?: string): Promise<ParsedMail> {
  const c = new HttpClient(server.url);
  const lang = language ? `?lang=${language}` : "";
  const signup = await c.postForm(`/portal/${handle}/signup${lang}`, {
    firstName: "Ada",
    lastName: "Lind",
    email: "ada@aff.example",
    password: "first password 1",
    terms: "on",
    ...(language ? { language } : {}),
  });
  expect(signup.status).toBe(200);
  expect((await c.postForm(`/portal/${handle}/forgot${lang}`, { email: "ada@aff.example" })).status).toBe(200);
  await drainJobs();
  for (let i = 0; i < 50 && resets().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(resets()).toHaveLength(1);
  return resets()[0]!;
}

describe("password reset e-mail over SMTP", () => {
  it("is sent by the job after the commit, and its link works once", async () => {
    const c = new HttpClient(server.url);
    await c.postForm(`/portal/${handle}/signup`, {
      firstName: "Ada",
      lastName: "Lind",
      email: "ada@aff.example",
      password: "first password 1",
      terms: "on",
    });
    expect((await c.postForm(`/portal/${handle}/forgot`, { email: "ada@aff.example" })).status).toBe(200);
    // Nothing is sent inside the request: the job does it.
    expect(received).toHaveLength(0);
    await drainJobs();
    for (let i = 0; i < 50 && resets().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(resets()).toHaveLength(1);
    const mail = resets()[0]!;
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe("ada@aff.example");
    expect(mail.from?.text).toContain("affiliates@velo.example");
    expect(mail.subject).toContain("Reset your");
    const link = /https?:\/\/\S+\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? "");
    expect(link, mail.text).not.toBeNull();
    expect((await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "affiliate.reset" } })).status).toBe("sent");
    const done = await c.postForm(`/portal/${handle}/reset`, {
      token: link![1]!,
      password: "second password 2",
      confirm: "second password 2",
    });
    expect(location(done)).toBe(`/portal/${handle}/login?reset=1`);
    const again = await c.postForm(`/portal/${handle}/reset`, {
      token: link![1]!,
      password: "third password 33",
      confirm: "third password 33",
    });
    expect(again.status).toBe(400);
    expect(
      location(
        await c.postForm(`/portal/${handle}/login`, { email: "ada@aff.example", password: "second password 2" }),
      ),
    ).toBe("/account");
  });

  it("is in the language the affiliate picked (Japanese), with the link and its duration", async () => {
    const mail = await resetMail("jp");
    expect((await getDb().affiliate.findFirstOrThrow()).language).toBe("jp");
    const shop = handle;
    expect(mail.subject).toBe(`${shop}のアフィリエイターパスワードの再設定`);
    expect(mail.text).toContain("Ada 様");
    expect(mail.text).toContain("リンクは1回のみ、60分間有効です");
    expect(mail.text).toMatch(new RegExp(`https?://\\S+/portal/${handle}/reset\\?token=[A-Za-z0-9_-]+`));
    expect(mail.text).not.toMatch(/Reset your|\{\{/);
    const row = await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "affiliate.reset" } });
    expect(row.subject).toBe(mail.subject);
  });

  it("is in the shop's language when the affiliate picked none (German)", async () => {
    await openShop("de");
    const mail = await resetMail();
    expect((await getDb().affiliate.findFirstOrThrow({ where: { shopId } })).language).toBeNull();
    expect(mail.subject).toBe(`Affiliate-Passwort für ${handle} zurücksetzen`);
    expect(mail.text).toContain("Hallo Ada,");
    expect(mail.text).toContain("der Link funktioniert einmal, 60 Minuten lang");
  });

  it("uses the merchant's edited template (Notifications), transactional: no unsubscribe", async () => {
    await getDb().notificationTemplate.create({
      data: {
        shopId,
        key: "affiliate.reset",
        subject: "【{{ shop.name }}】パスワード再設定のご案内",
        body: "{{ affiliate.first_name }} 様\n\n{{ reset_url }}\n({{ link_expires }})",
      },
    });
    const mail = await resetMail("jp");
    expect(mail.subject).toBe(`【${handle}】パスワード再設定のご案内`);
    expect(mail.text).toContain("Ada 様");
    expect(mail.text).toContain("(60分)");
    expect(mail.headerLines.some((h) => h.key.startsWith("list-unsubscribe"))).toBe(false);
  });

  it("sends nothing for an address without an account", async () => {
    await new HttpClient(server.url).postForm(`/portal/${handle}/forgot`, { email: "nobody@aff.example" });
    await drainJobs();
    expect(received).toHaveLength(0);
    expect(await getDb().job.count({ where: { type: "email.send" } })).toBe(0);
  });
});
