import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on a loopback port for tests: it records every request
// (headers and raw body) and answers what the test tells it to.

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
  private server: Server | null = null;
  private port = 0;

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.received.push(request);
        const answer = this.answer(request, this.received.length - 1);
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
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
