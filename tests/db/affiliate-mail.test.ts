import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/models/jobs/registry.server";
import { buildCampaign, buildShop } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Password reset e-mails over real SMTP: an SMTP sink on loopback
// (smtp-server) receives what the e-mail job sends after the commit, and the
// link in it resets the password once.
applyTestEnv({ MAIL_FROM: "Velo affiliates <affiliates@velo.example>" });
const received: ParsedMail[] = [];
let smtp: SMTPServer;
beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const { resetConfigForTests } = await import("~/config.server");
  resetConfigForTests();
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
useTestDatabase();
const server = useTestServer();

let handle: string;
beforeEach(async () => {
  received.length = 0;
  const shop = await buildShop();
  handle = shop.domain.replace(".myshopify.com", "");
  const campaign = await buildCampaign(shop.id);
  await getDb().campaign.update({ where: { id: campaign.id }, data: { autoApproveAffiliates: true } });
});

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
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe("ada@aff.example");
    expect(mail.from?.text).toContain("affiliates@velo.example");
    expect(mail.subject).toContain("Reset your");
    const link = /https?:\/\/\S+\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? "");
    expect(link, mail.text).not.toBeNull();
    expect((await getDb().outboxEmail.findFirstOrThrow()).status).toBe("sent");
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

  it("sends nothing for an address without an account", async () => {
    await new HttpClient(server.url).postForm(`/portal/${handle}/forgot`, { email: "nobody@aff.example" });
    await drainJobs();
    expect(received).toHaveLength(0);
    expect(await getDb().job.count({ where: { type: "email.send" } })).toBe(0);
  });
});
