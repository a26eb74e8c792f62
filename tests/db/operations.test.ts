import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db.server";
import { readMigrations } from "~/db/migrate.server";
import { drainJobs } from "~/worker/job-registry.server";
import { queueEmail } from "~/models/mail/outbox.server";
import { pruneOldRows, scheduleRetention } from "~/models/ops/retention.server";
import { startHeartbeat } from "~/models/ops/worker-heartbeat.server";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";

// Operations (issue 27): /healthz, /readyz, /metrics behind its token, one
// JSON log line per request, and the retention job, against the built app
// over real HTTP on this file's database.
const TOKEN = "metrics-token-0123456789";
applyTestEnv({ METRICS_TOKEN: TOKEN, REQUEST_LOG: "1", RETENTION_DAYS: "30" });
const database = useTestDatabase();
const server = useTestServer();

const DAY = 86_400_000;

async function getJson(path: string) {
  const res = await fetch(server.url(path));
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as any };
}

/** The lines the request log writes while `run` runs (it writes to stdout, batched per event-loop turn). */
async function requestLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await run();
    await new Promise((r) => setTimeout(r, 60)); // past the log's batching
  } finally {
    spy.mockRestore();
  }
  return written
    .join("")
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("GET /healthz and /readyz", () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it("healthz answers while the process runs; readyz waits for a worker's fresh heartbeat", async () => {
    expect(await getJson("/healthz")).toEqual({
      status: 200,
      type: "application/json; charset=utf-8",
      body: { status: "ok" },
    });
    const before = await getJson("/readyz");
    expect(before.status).toBe(503);
    expect(before.body).toMatchObject({
      status: "not_ready",
      checks: {
        database: { ok: true },
        migrations: { ok: true, pending: [] },
        worker: { ok: false, lastSeenSecondsAgo: null },
      },
    });

    // A worker that stopped beating a while ago does not count either.
    await getDb().workerHeartbeat.create({
      data: {
        id: "w-old",
        host: "h",
        pid: 1,
        startedAt: new Date(Date.now() - DAY),
        seenAt: new Date(Date.now() - 120_000),
      },
    });
    await new Promise((r) => setTimeout(r, 1100)); // past the second a result is reused
    const stale = (await getJson("/readyz")).body.checks.worker;
    expect(stale.ok).toBe(false);
    expect(stale.lastSeenSecondsAgo).toBeGreaterThanOrEqual(120);

    const beat = startHeartbeat(getDb(), "w-test");
    stops.push(() => beat.stop());
    await new Promise((r) => setTimeout(r, 1100));
    const after = await getJson("/readyz");
    expect(after.status).toBe(200);
    expect(after.body.status).toBe("ready");
    expect(after.body.checks.worker.ok).toBe(true);
  });

  it("readyz is 503 and names a migration this version ships that the database lacks", async () => {
    const beat = startHeartbeat(getDb(), "w-test");
    stops.push(() => beat.stop());
    const last = readMigrations(database.current().provider).at(-1)!.name;
    const row = await getDb().$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM "_prisma_migrations" WHERE migration_name = '${last}'`,
    );
    await getDb().$executeRawUnsafe(
      `UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE migration_name = '${last}'`,
    );
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const res = await getJson("/readyz");
      expect(res.status).toBe(503);
      expect(res.body.checks.migrations).toEqual({ ok: false, expected: expect.any(Number), pending: [last] });
    } finally {
      await getDb().$executeRawUnsafe(
        `UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = '${last}'`,
      );
    }
    expect(row).toHaveLength(1);
  });

  it("answers only GET and HEAD", async () => {
    const res = await fetch(server.url("/healthz"), { method: "POST" });
    expect(res.status).toBe(405);
    expect((await fetch(server.url("/healthz"), { method: "HEAD" })).status).toBe(200);
  });
});

describe("GET /metrics", () => {
  const scrape = (token?: string) =>
    fetch(server.url("/metrics"), token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it("needs the token", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("wrong-token-0123456789")).status).toBe(401);
    expect((await scrape(TOKEN)).status).toBe(200);
  });

  it("counts requests by route kind, webhooks by topic and outcome, e-mails, and reads the job queue", async () => {
    const shop = await buildShop();
    const api = new ApiClient(server.url, (await buildApiKey(shop.id)).key);
    expect((await api.get("/api/v1/sales")).status).toBe(200);
    const body = JSON.stringify({ id: 1, name: "x", handle: "x", title: "x" });
    const headers = webhookHeaders("products/create", shop.domain, body);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(server.url("/webhooks"), { method: "POST", body, headers });
      expect(res.status).toBe(200);
    }
    await getDb().$transaction((tx) =>
      queueEmail(tx, { shopId: shop.id, to: "a@example.com", subject: "Hello", text: "Hi" }),
    );
    await getDb().job.create({
      data: { type: "bonus.evaluate", payload: "{}", runAt: new Date(Date.now() - 90_000) },
    });
    await drainJobs({ logger: { error: () => {}, info: () => {} } });
    await getDb().job.create({
      data: { type: "tier.evaluate", payload: "{}", runAt: new Date(Date.now() - 90_000) },
    });

    const text = await (await scrape(TOKEN)).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(series + " "));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('http_requests_total{kind="api",status="2xx",process="web"}')).toBeGreaterThanOrEqual(1);
    expect(
      value('shopify_webhooks_received_total{topic="products/create",outcome="stored",process="web"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value('shopify_webhooks_received_total{topic="products/create",outcome="duplicate",process="web"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(value('emails_total{outcome="unsent",process="web"}')).toBeGreaterThanOrEqual(1);
    expect(value('jobs_due{type="tier.evaluate",process="web"}')).toBe(1);
    expect(value('jobs_oldest_due_seconds{type="tier.evaluate",process="web"}')).toBeGreaterThanOrEqual(89);
    expect(value('jobs_failed{type="bonus.evaluate",process="web"}')).toBe(1);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",kind="api",process="web"\} \d+$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{process="web"\} \d+/m);
  });
});

describe("the request log", () => {
  it("writes one JSON line per request: id, route, status, ms and shop; probes are not logged", async () => {
    const shop = await buildShop();
    const api = new ApiClient(server.url, (await buildApiKey(shop.id)).key);
    let echoed: string | null = null;
    const lines = await requestLines(async () => {
      const res = await api.request("/api/v1/sales", { headers: { "x-request-id": "lb-1234" } });
      echoed = res.headers.get("x-request-id");
      await fetch(server.url("/healthz"));
      await fetch(server.url("/readyz"));
      const forged = await fetch(server.url("/login"), { headers: { "x-request-id": "not a plain token" } });
      expect(forged.headers.get("x-request-id")).toBeNull();
      await fetch(server.url("/api/v1/sales"));
    });
    expect(echoed).toBe("lb-1234");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "info",
      msg: "request",
      id: "lb-1234",
      method: "GET",
      kind: "api",
      route: "routes/api.v1.sales._index",
      status: 200,
      ms: expect.any(Number),
      shop: shop.domain,
    });
    expect(lines[1]).toMatchObject({ kind: "auth", route: "routes/login", status: 200, shop: null });
    expect(lines[1]!.id).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    expect(lines[2]).toMatchObject({ kind: "api", route: "routes/api.v1.sales._index", status: 401, shop: null });
  });

  it("names the shop of a verified webhook and the server's own handler", async () => {
    const shop = await buildShop();
    const body = JSON.stringify({ id: 2, title: "y" });
    const lines = await requestLines(() =>
      fetch(server.url("/webhooks"), {
        method: "POST",
        body,
        headers: webhookHeaders("products/create", shop.domain, body),
      }),
    );
    expect(lines).toEqual([expect.objectContaining({ route: "server/webhooks", status: 200, shop: shop.domain })]);
  });
});

describe("the retention job", () => {
  it("deletes what is older than RETENTION_DAYS in chunks, keeps everything newer or unfinished, and queues tomorrow's run", async () => {
    const db = getDb();
    const old = new Date(Date.now() - 40 * DAY);
    const recent = new Date(Date.now() - 10 * DAY);
    const shop = await buildShop();
    // More than one chunk of old done jobs.
    await db.job.createMany({
      data: Array.from({ length: 1203 }, () => ({ type: "email.send", payload: "{}", status: "done", runAt: old })),
    });
    await db.job.createMany({
      data: [
        { type: "email.send", payload: "{}", status: "done", runAt: recent },
        { type: "email.send", payload: "{}", status: "failed", runAt: old },
        { type: "email.send", payload: "{}", status: "queued", runAt: old },
      ],
    });
    const event = (processedAt: Date | null) => ({
      shopDomain: shop.domain,
      topic: "orders/create",
      webhookId: randomUUID(),
      payload: "{}",
      receivedAt: old,
      processedAt,
    });
    await db.webhookEvent.createMany({ data: [event(old), event(recent), event(null)] });
    const mail = (status: string, createdAt: Date) => ({
      shopId: shop.id,
      toAddress: "a@example.com",
      subject: `${status} ${createdAt.toISOString()}`,
      text: "body",
      html: "<p>body</p>",
      status,
      createdAt,
    });
    await db.outboxEmail.createMany({
      data: [mail("sent", old), mail("sent", recent), mail("retrying", old), mail("queued", old)],
    });
    const endpoint = await db.webhookEndpoint.create({
      data: { shopId: shop.id, url: "https://hooks.example/x", eventTypes: "[]", secret: "whsec_x" },
    });
    for (const [status, updatedAt] of [
      ["delivered", old],
      ["failed", old],
      ["pending", old],
      ["delivered", recent],
    ] as const) {
      const delivery = await db.webhookDelivery.create({
        data: { shopId: shop.id, endpointId: endpoint.id, eventType: "sale.credited", payload: "{}", status },
      });
      await db.webhookAttempt.create({ data: { deliveryId: delivery.id, number: 1, durationMs: 5, ok: true } });
      await db.$executeRawUnsafe(
        database.current().provider === "postgresql"
          ? `UPDATE "WebhookDelivery" SET "updatedAt" = $1 WHERE "id" = $2`
          : `UPDATE "WebhookDelivery" SET "updatedAt" = ? WHERE "id" = ?`,
        database.current().provider === "postgresql" ? updatedAt : updatedAt.toISOString().replace("Z", "+00:00"),
        delivery.id,
      );
    }
    await db.workerHeartbeat.create({
      data: { id: "gone", host: "h", pid: 1, startedAt: old, seenAt: new Date(Date.now() - 2 * DAY) },
    });
    // Finished imports go once old; one still running stays however old.
    for (const [status, createdAt] of [
      ["done", old],
      ["failed", old],
      ["running", old],
      ["done", recent],
    ] as const) {
      await db.affiliateImport.create({ data: { shopId: shop.id, status, rows: "[]", total: 0, createdAt } });
      await db.paidPayoutImport.create({
        data: { shopId: shop.id, status, rows: "[]", total: 0, actor: "u", fileHash: "h", createdAt },
      });
    }
    // Flow triggers go once old and no longer pending; records of action runs once old.
    for (const [status, createdAt] of [
      ["sent", old],
      ["pending", old],
      ["sent", recent],
    ] as const)
      await db.flowTrigger.create({
        data: {
          shopId: shop.id,
          handle: "payout-paid",
          dedupeKey: `${status}${createdAt.getTime()}`,
          payload: "{}",
          status,
          createdAt,
        },
      });
    for (const [runId, createdAt] of [
      ["old", old],
      ["recent", recent],
    ] as const)
      await db.flowActionRun.create({
        data: {
          shopId: shop.id,
          actionRunId: runId,
          handle: "approve-affiliate",
          status: 200,
          response: "{}",
          createdAt,
        },
      });

    await scheduleRetention(db, 30);
    await scheduleRetention(db, 30); // a second worker starting: still one run today
    expect(await db.job.count({ where: { type: "retention.prune" } })).toBe(1);
    // Its time comes (between midnight and 03:00 UTC it is queued for 03:00).
    await db.job.updateMany({ where: { type: "retention.prune" }, data: { runAt: new Date() } });
    await drainJobs();

    expect(await db.job.count({ where: { type: "email.send", status: "done" } })).toBe(1);
    expect(await db.job.count({ where: { type: "email.send", status: { in: ["failed", "queued"] } } })).toBe(2);
    expect((await db.webhookEvent.findMany()).map((e) => e.processedAt?.getTime() ?? null).sort()).toEqual(
      [recent.getTime(), null].sort(),
    );
    const mails = await db.outboxEmail.findMany({ orderBy: { subject: "asc" } });
    expect(mails.map((m) => [m.status, m.createdAt.getTime() === old.getTime(), m.text, m.html])).toEqual([
      ["queued", true, "body", "<p>body</p>"],
      ["retrying", true, "body", "<p>body</p>"],
      ["sent", true, "", null],
      ["sent", false, "body", "<p>body</p>"],
    ]);
    const deliveries = await db.webhookDelivery.findMany({ include: { attemptsLog: true } });
    expect(deliveries.map((d) => [d.status, d.attemptsLog.length]).sort()).toEqual([
      ["delivered", 1],
      ["pending", 1],
    ]);
    expect(await db.webhookAttempt.count()).toBe(2);
    expect(await db.workerHeartbeat.count()).toBe(0);
    for (const imports of [db.affiliateImport.findMany(), db.paidPayoutImport.findMany()])
      expect((await imports).map((i) => [i.status, i.createdAt.getTime() === old.getTime()]).sort()).toEqual([
        ["done", false],
        ["running", true],
      ]);
    expect(
      (await db.flowTrigger.findMany()).map((t) => [t.status, t.createdAt.getTime() === old.getTime()]).sort(),
    ).toEqual([
      ["pending", true],
      ["sent", false],
    ]);
    expect((await db.flowActionRun.findMany()).map((r) => r.actionRunId)).toEqual(["recent"]);
    // Tomorrow's run is queued; today's is done.
    const runs = await db.job.findMany({ where: { type: "retention.prune" }, orderBy: { runAt: "asc" } });
    expect(runs.map((r) => r.status)).toEqual(["done", "queued"]);
    expect(runs[1]!.runAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
  });

  it("keeps everything with RETENTION_DAYS=0", async () => {
    const db = getDb();
    await db.job.create({ data: { type: "email.send", payload: "{}", status: "done", runAt: new Date(0) } });
    expect(await pruneOldRows(db, { days: 0 })).toEqual({
      jobs: 0,
      webhookEvents: 0,
      emailBodies: 0,
      webhookDeliveries: 0,
      imports: 0,
      flow: 0,
      heartbeats: 0,
    });
    await scheduleRetention(db, 0);
    expect(await db.job.count()).toBe(1);
  });
});
