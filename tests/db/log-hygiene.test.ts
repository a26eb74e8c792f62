import { format } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig, resetConfigForTests } from "~/config.server";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { queueEmail } from "~/models/mail/outbox.server";
import { buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";

// Log hygiene (issue 9, finding 9): a value a client sends cannot start a log
// line of its own, a malformed webhook is logged once and briefly instead of
// in full on each of its retries, and e-mails with live links reach the log
// only in the demo, saying so.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36" };
const METHODS = ["log", "info", "warn", "error", "debug"] as const;

/** Everything written through console while `run` runs, as the lines a log file would get. */
async function logLines(run: () => Promise<unknown>): Promise<string[]> {
  const written: string[] = [];
  const spies = METHODS.map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void written.push(format(...args))),
  );
  try {
    await run();
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
  return written.flatMap((entry) => entry.split("\n"));
}

afterEach(() => vi.restoreAllMocks());

describe("values from requests in the log", () => {
  const FORGED = "[error] FORGED admin logged in";
  const shop = encodeURIComponent(`evil.myshopify.com\n${FORGED}`);

  it.each([
    `/api/auth?shop=${shop}&code=abc&state=x&timestamp=1&hmac=00`,
    `/api/auth/authorize?shop=${shop}`,
    `/admin/dashboard?embedded=1&host=aGVsbG8&shop=${shop}`,
    `/auth/session-token?shop=${shop}`,
    `/auth?shop=${shop}`,
  ])("cannot start a log line of their own: %s", async (path) => {
    const lines = await logLines(async () => {
      const res = await fetch(server.url(path), { headers: BROWSER, redirect: "manual" });
      expect(res.status).toBeLessThan(500);
      await res.arrayBuffer();
      // Let a library's fire-and-forget log calls land.
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(lines.filter((line) => line.startsWith("[error] FORGED"))).toEqual([]);
  });

  it("escapes control characters in the shopify library's own log lines", async () => {
    const { shopifyLib } = await import("~/shopify.server");
    const lines = await logLines(async () => {
      await shopifyLib().logger.error("Could not find OAuth cookie", { shop: `a.myshopify.com\n${FORGED}` });
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("\\n[error] FORGED");
  });
});

describe("a malformed webhook", () => {
  it("is logged once, in one short line, and not retried", async () => {
    const shop = await buildShop();
    // Signed and well-formed JSON, but not an order.
    const body = JSON.stringify({ id: 1, note: "x".repeat(2000), line_items: [{ price: { amount: [] } }] });
    const res = await fetch(server.url("/webhooks"), {
      method: "POST",
      body,
      headers: webhookHeaders("orders/create", shop.domain, body),
    });
    expect(res.status).toBe(200);
    const logged: string[] = [];
    const logger = { error: (...a: unknown[]) => void logged.push(format(...a)), info: () => {} };
    await drainJobs({ logger });
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain("\n");
    expect(logged[0]!.length).toBeLessThan(400);
    expect(logged[0]).toMatch(/webhook .* not processed: the payload is not valid/);
    const job = await getDb().job.findFirstOrThrow({ where: { type: "webhook" } });
    // Retrying cannot make the payload valid: failed at once, kept for a look.
    expect(job.status).toBe("failed");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/payload is not valid/);
  });
});

describe("e-mails without SMTP_URL", () => {
  const TOKEN_LINK = "https://app.example/portal/x/reset?token=live-secret-token";

  async function sendOne(shopDomain: string) {
    const shop = await buildShop({ domain: shopDomain });
    await getDb().$transaction((tx) =>
      queueEmail(tx, { shopId: shop.id, to: "aff@example.com", subject: "Reset your password", text: TOKEN_LINK }),
    );
    return logLines(() => drainJobs());
  }

  it("are not printed with their links outside the demo, and the log says why", async () => {
    expect(getConfig().SMTP_URL).toBeUndefined();
    const lines = await sendOne("real-shop.myshopify.com");
    expect(lines.join("\n")).not.toContain("live-secret-token");
    expect(lines.join("\n")).toMatch(/not sent.*SMTP_URL/);
    const row = await getDb().outboxEmail.findFirstOrThrow();
    expect(row.status).toBe("unsent");
  });

  it("are kept a batch at a time, and the log says so once per batch, not once per e-mail", async () => {
    const shop = await buildShop({ domain: "busy-shop.myshopify.com" });
    await getDb().$transaction(async (tx) => {
      for (let i = 0; i < 12; i++)
        await queueEmail(tx, { shopId: shop.id, to: `a${i}@example.com`, subject: "New sale", text: "A sale" });
    });
    const lines = await logLines(() => drainJobs());
    expect(lines.filter((line) => /not sent.*SMTP_URL/.test(line))).toEqual([
      expect.stringContaining("[mail] 12 e-mails not sent: SMTP_URL is unset"),
    ]);
    const rows = await getDb().outboxEmail.findMany({ select: { status: true } });
    expect(rows.map((row) => row.status)).toEqual(Array(12).fill("unsent"));
  });

  // The mode is read with the configuration: set for one test, then put back.
  function inMode(demo: "0" | "1") {
    process.env.DEMO = demo;
    resetConfigForTests();
  }
  afterEach(() => {
    delete process.env.DEMO;
    resetConfigForTests();
  });

  it("are printed in full for the demo shop in the demo, marked as the demo's", async () => {
    inMode("1");
    const lines = await sendOne(getConfig().DEMO_SHOP);
    expect(lines.join("\n")).toContain("live-secret-token");
    expect(lines.join("\n")).toMatch(/demo/i);
  });

  it("are never printed in production, not even for a shop named as the demo's", async () => {
    inMode("0");
    const lines = await sendOne(getConfig().DEMO_SHOP);
    expect(lines.join("\n")).not.toContain("live-secret-token");
    expect(lines.join("\n")).toMatch(/not sent.*SMTP_URL/);
  });
});
