import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

// A small stateful PayPal for tests and the demo, speaking PayPal's REST
// protocol: the OAuth token (Basic auth, client credentials), Payouts
// (create, get with pages), and verify-webhook-signature. What Prism cannot
// do (it keeps no state) happens here: a sender_batch_id used twice is
// refused with PayPal's duplicate answer and a link to the first batch;
// answers can be lost (5xx after the batch was made, or no answer at all);
// items move through their states on each read.
//
// With a Prism URL, every Payouts request is first sent to Prism mocking
// PayPal's own OpenAPI file (startPrism): a request that breaks the file is
// answered with Prism's 4xx and its reasons (sl-violations), and recorded in
// `violations`, so no request of the app passes unchecked.

export const PAYPAL_OPENAPI_FILE =
  process.env.PAYPAL_OPENAPI_FILE ?? path.resolve(__dirname, "../fixtures/paypal/payments_payouts_batch_v1.json");

export type PostFault =
  | "500" // answered 500 without making the batch
  | "made-then-500" // the batch is made, the answer is a 500
  | "made-then-hang" // the batch is made, no answer comes (a timeout, or a crash of the caller)
  | "hang"; // no answer, nothing made

export interface FakeItem {
  payout_item_id: string;
  transaction_id: string;
  sender_item_id: string;
  receiver: string;
  amount: { currency: string; value: string };
  /** The states it goes through, one per read of its batch; the last one stays. */
  path: string[];
  step: number;
}

export interface FakeBatch {
  payoutBatchId: string;
  senderBatchId: string;
  created: string;
  items: FakeItem[];
}

export interface RecordedPost {
  senderBatchId: string;
  requestId: string | null;
  itemCount: number;
  subject: string | null;
}

/** The states a receiver's item goes through: by the receiver's address, so tests pick outcomes by e-mail. */
export function defaultItemPath(receiver: string): string[] {
  if (receiver.startsWith("returned")) return ["UNCLAIMED", "RETURNED"];
  if (receiver.startsWith("unclaimed")) return ["UNCLAIMED"];
  if (receiver.startsWith("fail")) return ["FAILED"];
  if (receiver.startsWith("blocked")) return ["BLOCKED"];
  if (receiver.startsWith("onhold")) return ["ONHOLD", "SUCCESS"];
  return ["PENDING", "SUCCESS"];
}

export interface PaypalFakeOptions {
  /** Accepted client id → secret (default: any id with the secret "fake-secret"). */
  credentials?: Record<string, string>;
  prismUrl?: string;
  itemPath?: (receiver: string) => string[];
  log?: (line: string) => void;
}

const id = (prefix: string) => `${prefix}${randomBytes(8).toString("hex").toUpperCase()}`.slice(0, 20);

export class PaypalFake {
  readonly batches = new Map<string, FakeBatch>();
  readonly posts: RecordedPost[] = [];
  readonly violations: { method: string; path: string; reasons: string }[] = [];
  readonly webhookChecks: { webhookId: string; verified: boolean }[] = [];
  readonly postFaults: PostFault[] = [];
  private readonly tokens = new Set<string>();
  private readonly webhookKey = randomBytes(16).toString("hex");
  private readonly hanging = new Set<http.ServerResponse>();
  private server: http.Server | null = null;
  url = "";

  constructor(private readonly options: PaypalFakeOptions = {}) {}

  async start(port = 0): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  reset() {
    this.batches.clear();
    this.webhooks.clear();
    this.posts.length = 0;
    this.violations.length = 0;
    this.webhookChecks.length = 0;
    this.postFaults.length = 0;
  }

  /** Distinct batches PayPal made (what would be paid). */
  batchCount() {
    return this.batches.size;
  }

  /** A PAYMENT.PAYOUTS-ITEM.* webhook for an item, signed so verify-webhook-signature accepts it for webhookId. */
  webhookFor(item: FakeItem, batch: FakeBatch, webhookId: string, status?: string) {
    const state = status ?? item.path[Math.min(item.step, item.path.length - 1)]!;
    const event = {
      id: id("WH-"),
      event_version: "1.0",
      create_time: new Date().toISOString(),
      resource_type: "payouts_item",
      event_type: `PAYMENT.PAYOUTS-ITEM.${state === "SUCCESS" ? "SUCCEEDED" : state}`,
      summary: `Payout item ${state.toLowerCase()}`,
      resource: this.itemBody(item, batch, state),
    };
    const body = JSON.stringify(event);
    const transmissionId = randomBytes(8).toString("hex");
    const time = new Date().toISOString();
    return {
      body,
      headers: {
        "content-type": "application/json",
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": `${this.url}/v1/notifications/certs/CERT-fake`,
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-time": time,
        "paypal-transmission-sig": this.sign(transmissionId, time, webhookId, body),
      },
    };
  }

  private sign(transmissionId: string, time: string, webhookId: string, body: string) {
    return createHmac("sha256", this.webhookKey)
      .update(`${transmissionId}|${time}|${webhookId}|${body}`)
      .digest("base64");
  }

  private itemBody(item: FakeItem, batch: FakeBatch, state: string) {
    const failed = ["FAILED", "BLOCKED", "RETURNED"].includes(state);
    return {
      payout_item_id: item.payout_item_id,
      transaction_id: item.transaction_id,
      transaction_status: state,
      payout_batch_id: batch.payoutBatchId,
      sender_batch_id: batch.senderBatchId,
      payout_item: {
        recipient_type: "EMAIL",
        amount: item.amount,
        receiver: item.receiver,
        sender_item_id: item.sender_item_id,
      },
      time_processed: new Date().toISOString(),
      ...(failed
        ? {
            errors: {
              name: state === "RETURNED" ? "RECEIVER_UNCLAIMED" : "RECEIVER_UNREGISTERED",
              message:
                state === "RETURNED"
                  ? "The receiver did not claim the payment within 30 days."
                  : "Receiver is unregistered.",
              debug_id: randomBytes(6).toString("hex"),
            },
          }
        : {}),
      links: [{ href: `${this.url}/v1/payments/payouts-item/${item.payout_item_id}`, rel: "item", method: "GET" }],
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    this.options.log?.(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    try {
      if (req.method === "POST" && url.pathname === "/v1/oauth2/token") return this.token(req, raw, send);
      const auth = req.headers.authorization ?? "";
      if (!auth.startsWith("Bearer ") || !this.tokens.has(auth.slice(7))) {
        return send(401, { error: "invalid_token", error_description: "Token signature verification failed" });
      }
      if (url.pathname.startsWith("/v1/payments/") && this.options.prismUrl) {
        const refused = await this.checkWithPrism(req, url, raw);
        if (refused) return send(refused.status, refused.body, { "sl-violations": refused.reasons });
      }
      if (req.method === "POST" && url.pathname === "/v1/payments/payouts")
        return this.createBatch(req, raw, res, send);
      const get = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && get) return this.getBatch(decodeURIComponent(get[1]!), url, send);
      if (url.pathname === "/v1/notifications/webhooks") {
        if (req.method === "GET") return send(200, { webhooks: [...this.webhooks.values()] });
        if (req.method === "POST") return this.createWebhook(raw, send);
      }
      if (req.method === "POST" && url.pathname === "/v1/notifications/verify-webhook-signature") {
        return this.verify(raw, send);
      }
      send(404, { name: "RESOURCE_NOT_FOUND", message: "The specified resource does not exist.", debug_id: "fake" });
    } catch (error) {
      send(500, { name: "INTERNAL_SERVER_ERROR", message: String(error), debug_id: "fake" });
    }
  }

  // Webhooks Management v1 as PayPal documents it: 201 with the webhook; a URL
  // already subscribed is WEBHOOK_URL_ALREADY_EXISTS (400); a bad body, 400.
  readonly webhooks = new Map<string, { id: string; url: string; event_types: { name: string }[]; links: unknown[] }>();

  private createWebhook(raw: string, send: (s: number, b: unknown) => void) {
    const body = JSON.parse(raw || "{}") as { url?: unknown; event_types?: { name?: unknown }[] };
    const url = typeof body.url === "string" ? body.url : "";
    const types = Array.isArray(body.event_types) ? body.event_types : [];
    if (
      !/^https?:\/\//.test(url) ||
      url.length > 2048 ||
      !types.length ||
      types.length > 500 ||
      types.some((t) => typeof t?.name !== "string")
    ) {
      return send(400, {
        name: "INVALID_REQUEST",
        message: "Request is not well-formed, syntactically incorrect, or violates schema.",
        debug_id: "fake",
      });
    }
    if ([...this.webhooks.values()].some((w) => w.url === url)) {
      return send(400, {
        name: "WEBHOOK_URL_ALREADY_EXISTS",
        message: "Webhook URL already exists.",
        debug_id: "fake",
      });
    }
    const id = `WH-${randomBytes(8).toString("hex").toUpperCase()}`;
    const webhook = {
      id,
      url,
      event_types: types.map((t) => ({ name: String(t.name) })),
      links: [{ href: `${this.url}/v1/notifications/webhooks/${id}`, rel: "self", method: "GET" }],
    };
    this.webhooks.set(id, webhook);
    send(201, webhook);
  }

  private token(req: http.IncomingMessage, raw: string, send: (s: number, b: unknown) => void) {
    const basic = (req.headers.authorization ?? "").replace(/^Basic /, "");
    const [clientId, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
    const known = this.options.credentials;
    const ok = clientId && (known ? known[clientId] === secret : secret === "fake-secret");
    if (!ok || !new URLSearchParams(raw).get("grant_type")?.includes("client_credentials")) {
      return send(401, { error: "invalid_client", error_description: "Client Authentication failed" });
    }
    const token = `A21AA${randomBytes(24).toString("hex")}`;
    this.tokens.add(token);
    send(200, {
      scope:
        "https://uri.paypal.com/services/payments/payouts-item/reverse https://uri.paypal.com/payments/payouts openid",
      access_token: token,
      token_type: "Bearer",
      app_id: `APP-${clientId!.slice(0, 12).toUpperCase()}`,
      expires_in: 32400,
      nonce: `${new Date().toISOString()}${randomBytes(6).toString("hex")}`,
    });
  }

  private async checkWithPrism(req: http.IncomingMessage, url: URL, raw: string) {
    const headers: Record<string, string> = { accept: "application/json" };
    for (const name of ["content-type", "authorization", "paypal-request-id"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const answer = await fetch(`${this.options.prismUrl}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.method === "GET" ? undefined : raw,
    });
    const reasons = answer.headers.get("sl-violations");
    const text = await answer.text();
    if (answer.status >= 400 && answer.status < 500 && reasons) {
      this.violations.push({ method: req.method ?? "", path: url.pathname, reasons });
      return { status: answer.status, body: text ? JSON.parse(text) : undefined, reasons };
    }
    return null;
  }

  private createBatch(
    req: http.IncomingMessage,
    raw: string,
    res: http.ServerResponse,
    send: (s: number, b: unknown) => void,
  ) {
    const body = JSON.parse(raw) as {
      sender_batch_header: { sender_batch_id: string; email_subject?: string };
      items: { sender_item_id: string; receiver: string; amount: { currency: string; value: string } }[];
    };
    const senderBatchId = body.sender_batch_header.sender_batch_id;
    this.posts.push({
      senderBatchId,
      requestId: (req.headers["paypal-request-id"] as string | undefined) ?? null,
      itemCount: body.items.length,
      subject: body.sender_batch_header.email_subject ?? null,
    });
    const fault = this.postFaults.shift();
    if (fault === "500")
      return send(500, {
        name: "INTERNAL_SERVER_ERROR",
        message: "An internal server error occurred.",
        debug_id: "fake",
      });
    if (fault === "hang") return void this.hanging.add(res);
    const existing = [...this.batches.values()].find((b) => b.senderBatchId === senderBatchId);
    if (existing) {
      // PayPal's answer to a reused sender_batch_id, with the link to the first batch.
      return send(400, {
        name: "USER_BUSINESS_ERROR",
        message: "User business error.",
        debug_id: randomBytes(6).toString("hex"),
        information_link: "https://developer.paypal.com/docs/api/payments.payouts-batch/#errors",
        details: [
          {
            field: "SENDER_BATCH_ID",
            location: "body",
            issue: "Batch with given sender_batch_id already exists",
            link: [
              {
                href: `${this.url}/v1/payments/payouts/${existing.payoutBatchId}`,
                rel: "self",
                method: "GET",
                encType: "application/json",
              },
            ],
          },
        ],
        links: [],
      });
    }
    const itemPath = this.options.itemPath ?? defaultItemPath;
    const batch: FakeBatch = {
      payoutBatchId: id("PB"),
      senderBatchId,
      created: new Date().toISOString(),
      items: body.items.map((item) => ({
        payout_item_id: id("PI"),
        transaction_id: id("TX"),
        sender_item_id: item.sender_item_id,
        receiver: item.receiver,
        amount: item.amount,
        path: itemPath(item.receiver),
        step: -1,
      })),
    };
    this.batches.set(batch.payoutBatchId, batch);
    if (fault === "made-then-500")
      return send(500, {
        name: "INTERNAL_SERVER_ERROR",
        message: "An internal server error occurred.",
        debug_id: "fake",
      });
    if (fault === "made-then-hang") return void this.hanging.add(res);
    send(201, {
      batch_header: {
        payout_batch_id: batch.payoutBatchId,
        batch_status: "PENDING",
        sender_batch_header: { sender_batch_id: senderBatchId, recipient_type: "EMAIL" },
      },
      links: [{ href: `${this.url}/v1/payments/payouts/${batch.payoutBatchId}`, rel: "self", method: "GET" }],
    });
  }

  private getBatch(payoutBatchId: string, url: URL, send: (s: number, b: unknown) => void) {
    const batch = this.batches.get(payoutBatchId);
    if (!batch) return send(404, { name: "RESOURCE_NOT_FOUND", message: "Batch not found", debug_id: "fake" });
    const page = Number(url.searchParams.get("page") ?? 1);
    const size = Number(url.searchParams.get("page_size") ?? 1000);
    const slice = batch.items.slice((page - 1) * size, page * size);
    // Each read moves the items it shows one state further.
    for (const item of slice) item.step = Math.min(item.step + 1, item.path.length - 1);
    const states = batch.items.map((i) => (i.step < 0 ? "PENDING" : i.path[i.step]!));
    const done = states.every((s) => s !== "PENDING" && s !== "ONHOLD");
    send(200, {
      batch_header: {
        payout_batch_id: batch.payoutBatchId,
        batch_status: done ? "SUCCESS" : "PROCESSING",
        time_created: batch.created,
        sender_batch_header: { sender_batch_id: batch.senderBatchId, recipient_type: "EMAIL" },
        amount: { currency: batch.items[0]?.amount.currency ?? "USD", value: "0" },
      },
      items: slice.map((item) => this.itemBody(item, batch, item.path[item.step]!)),
      total_items: batch.items.length,
      total_pages: Math.max(1, Math.ceil(batch.items.length / size)),
      links: [],
    });
  }

  private verify(raw: string, send: (s: number, b: unknown) => void) {
    // Take the event as sent: the signature covers its exact bytes.
    const head = raw.slice(0, raw.indexOf(',"webhook_event":'));
    const event = raw.slice(head.length + ',"webhook_event":'.length, -1);
    const check = JSON.parse(`${head}}`) as Record<string, string>;
    const expected = this.sign(check.transmission_id!, check.transmission_time!, check.webhook_id!, event);
    const verified = expected === check.transmission_sig;
    this.webhookChecks.push({ webhookId: check.webhook_id!, verified });
    send(200, { verification_status: verified ? "SUCCESS" : "FAILURE" });
  }
}

/** Prism mocking PayPal's Payouts OpenAPI file on a loopback port; it validates each request. */
export async function startPrism(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  if (!existsSync(PAYPAL_OPENAPI_FILE)) throw new Error(`PayPal's OpenAPI file is missing: ${PAYPAL_OPENAPI_FILE}`);
  const bin = path.resolve(__dirname, "../../node_modules/.bin/prism");
  const child: ChildProcess = spawn(
    bin,
    ["mock", PAYPAL_OPENAPI_FILE, "-h", "127.0.0.1", "-p", String(port), "--errors"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism stopped: ${output.slice(-2000)}`);
    try {
      await fetch(`${url}/v1/payments/payouts/PING`, { headers: { accept: "application/json" } });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Prism did not start: ${output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
