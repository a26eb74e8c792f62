import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on a loopback port for tests: it records every request
// (headers and raw body) and answers what the test tells it to. The benches
// use it outside vitest, so it imports nothing of vitest (the hooks are in
// webhook-receiver-hooks.ts).

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> };

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Decides each answer; by default 200 "ok". */
  answer: (request: ReceivedWebhook, index: number) => Answer = () => ({ status: 200, body: "ok" });
  /** How long each answer waits (a slow receiver). */
  delayMs = 0;
  /** The most requests that were open at the same moment. */
  maxInFlight = 0;
  private inFlight = 0;
  private server: Server | null = null;
  private port = 0;

  async start() {
    this.server = createServer((req, res) => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.on("close", () => this.inFlight--);
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.received.push(request);
        const answer = this.answer(request, this.received.length - 1);
        setTimeout(() => {
          res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
          res.end(answer.body ?? "");
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = "/hooks") {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
