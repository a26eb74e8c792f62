import http from "node:http";
import net from "node:net";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// What the server does at its door, before any route runs: request bodies
// over the limit of their route kind are refused with 413 without being read,
// a connection whose body a route left unread stays usable, and requests that
// Remix or the Shopify library used to turn into 500s get a 4xx with a message
// (issue 9, findings 4 and 6). Real HTTP with keep-alive agents throughout.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const MB = 1024 * 1024;

const agents: http.Agent[] = [];
function keepAliveAgent() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((a) => a.destroy()));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
  reusedSocket: boolean;
  /** Body bytes the client had written when the answer arrived. */
  sentWhenAnswered: number;
}

interface SendOptions {
  method?: string;
  headers?: Record<string, string | number>;
  agent?: http.Agent;
  /** Body chunks, written one by one (each after the previous one drained). */
  chunks?: Buffer[];
  /** Stop writing (and never end the request) once the answer is in. */
  stopOnAnswer?: boolean;
  timeoutMs?: number;
}

/** One request over node:http; resolves with the answer or rejects on timeout. */
function send(path: string, options: SendOptions = {}): Promise<Answer> {
  const url = new URL(server.url(path));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? "GET",
        headers: { "user-agent": BROWSER_UA, ...options.headers },
        agent: options.agent ?? false,
      },
      (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString("utf8"),
            ms: Date.now() - started,
            reusedSocket: req.reusedSocket,
            sentWhenAnswered,
          }),
        );
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${options.method ?? "GET"} ${path} within ${options.timeoutMs ?? 5000} ms`));
    }, options.timeoutMs ?? 5000);
    req.on("close", () => clearTimeout(timer));
    // A server that answers early and closes may reset the upload: the answer
    // is what counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunks = [...(options.chunks ?? [])];
    const writeNext = () => {
      if (options.stopOnAnswer && answered) return;
      const chunk = chunks.shift();
      if (!chunk) {
        if (!options.stopOnAnswer) req.end();
        return;
      }
      sent += chunk.length;
      if (req.write(chunk)) setImmediate(writeNext);
      else req.once("drain", writeNext);
    };
    if (options.chunks) writeNext();
    else req.end();
  });
}

const filled = (bytes: number, char = "a") => Buffer.alloc(bytes, char);
const pieces = (total: number, size = 64 * 1024) =>
  Array.from({ length: Math.ceil(total / size) }, (_, i) => filled(Math.min(size, total - i * size)));

describe("request body limits (finding 4)", () => {
  it("refuses a 50 MB form POST with 413 as soon as its headers arrive, without reading the body", async () => {
    const answer = await send("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": 50 * MB, accept: "text/html" },
      chunks: [filled(64 * 1024)],
      stopOnAnswer: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBeLessThanOrEqual(64 * 1024);
    expect(answer.headers["content-type"]).toMatch(/text\/html/);
    expect(answer.body).toContain("too large");
    expect(answer.headers.connection).toBe("close");
  });

  it("refuses a chunked body once it passes the limit, while the client is still sending", async () => {
    const answer = await send("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      chunks: pieces(20 * MB),
      stopOnAnswer: true,
      timeoutMs: 10_000,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBeLessThan(8 * MB);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "payload_too_large", message: expect.stringContaining("too large") },
    });
  });

  it("answers JSON to API clients and names the limit", async () => {
    const answer = await send("/api/v1/affiliates", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": 2 * MB },
      chunks: [filled(1024)],
      stopOnAnswer: true,
    });
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.message).toContain("256 KB");
  });

  it("lets the upload routes take more than a form, and webhooks as much as Shopify sends", async () => {
    const { bodyLimitFor } = await import("~/server/body-limits");
    const form = bodyLimitFor("/login").maxBytes;
    expect(bodyLimitFor("/admin/portals/abc").maxBytes).toBeGreaterThan(form);
    expect(bodyLimitFor("/staff/affiliates").maxBytes).toBeGreaterThan(form);
    expect(bodyLimitFor("/webhooks").maxBytes).toBeGreaterThanOrEqual(5 * MB);
    expect(bodyLimitFor("/api/v1/sales").maxBytes).toBeLessThanOrEqual(form);

    // 3 MB to an upload route passes the door (the route then wants a login).
    const upload = await send("/admin/portals/abc", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": 3 * MB },
      chunks: pieces(3 * MB),
    });
    expect(upload.status).not.toBe(413);
    expect(upload.status).toBeLessThan(500);
    // The same 3 MB to a plain form is refused.
    const plain = await send("/staff/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": 3 * MB },
      chunks: pieces(3 * MB),
      stopOnAnswer: true,
    });
    expect(plain.status).toBe(413);
  });

  it("refuses an oversized webhook with a 413 the sender actually receives", async () => {
    const answer = await send("/webhooks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      chunks: pieces(12 * MB),
      stopOnAnswer: true,
      timeoutMs: 10_000,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large");
  });

  it("keeps a keep-alive connection fast after a route answered without reading a 400 KB body", async () => {
    const agent = keepAliveAgent();
    const warm = await send("/login", { agent });
    expect(warm.status).toBe(200);
    // /auth has no action: Remix answers 405 without reading the body.
    const early = await send("/auth", {
      method: "POST",
      agent,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": 400 * 1024 },
      chunks: pieces(400 * 1024),
    });
    expect(early.status).toBe(405);
    const next = await send("/login", { agent, timeoutMs: 3000 });
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(2000);
    // The body was drained, so the same connection carried on.
    expect(next.reusedSocket).toBe(true);
  });

  it("keeps the next request fast after a 413 on a keep-alive agent", async () => {
    const agent = keepAliveAgent();
    const refused = await send("/login", {
      method: "POST",
      agent,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": 30 * MB },
      chunks: pieces(2 * MB),
      stopOnAnswer: true,
    });
    expect(refused.status).toBe(413);
    const next = await send("/login", { agent, timeoutMs: 3000 });
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(2000);
  });

  it("refuses with 413 before the body is sent when the client asks first (Expect: 100-continue)", async () => {
    const answer = await send("/login", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": 50 * MB,
        expect: "100-continue",
      },
      chunks: [],
      stopOnAnswer: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBe(0);
  });
});

describe("a refused upload the client keeps sending (issue 26)", () => {
  // A browser posts the whole body before it reads the answer. A server that
  // closes with the body unread resets the connection, and the reset throws
  // away the 413 before the browser reads it: the visitor sees "connection
  // reset". So the client here writes all 30 MB before it reads a byte.
  function postWholeBody(path: string, bytes: number) {
    const url = new URL(server.url(path));
    return new Promise<{ written: number; writeError: string | null; answer: string; readError: string | null }>(
      (resolve, reject) => {
        const socket = net.connect(Number(url.port), url.hostname);
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error("no end within 20 s"));
        }, 20_000);
        let written = 0;
        let writeError: string | null = null;
        let readError: string | null = null;
        const parts: Buffer[] = [];
        socket.pause();
        socket.on("data", (c: Buffer) => parts.push(c));
        socket.on("error", (e: NodeJS.ErrnoException) => {
          if (written < bytes) writeError = e.code ?? e.message;
          else readError = e.code ?? e.message;
        });
        socket.on("close", () => {
          clearTimeout(timer);
          resolve({ written, writeError, answer: Buffer.concat(parts).toString("latin1"), readError });
        });
        socket.once("connect", async () => {
          socket.write(
            `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: ${BROWSER_UA}\r\n` +
              `Accept: text/html\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${bytes}\r\n\r\n`,
          );
          const chunk = filled(256 * 1024);
          while (written < bytes && !socket.destroyed) {
            const piece = chunk.subarray(0, Math.min(chunk.length, bytes - written));
            const ok = socket.write(piece);
            written += piece.length;
            if (!ok) await new Promise((r) => socket.once("drain", r).once("close", r));
          }
          // Only now does the client read its answer.
          socket.resume();
        });
      },
    );
  }

  it("answers a 30 MB form to a 1 MB route 413 with Connection: close, and reads the body before closing", async () => {
    const started = Date.now();
    const result = await postWholeBody("/login", 30 * MB);
    expect(result.writeError).toBeNull();
    expect(result.readError).toBeNull();
    expect(result.written).toBe(30 * MB);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(result.answer).toContain("too large");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("still answers other requests while it drains", async () => {
    const draining = postWholeBody("/login", 30 * MB);
    const other = await send("/login");
    expect(other.status).toBe(200);
    expect((await draining).answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe("no 500s from the Remix and Shopify layers (finding 6)", () => {
  const errors = vi.spyOn(console, "error");
  afterEach(() => errors.mockClear());
  afterAll(() => errors.mockRestore());

  it("GET /auth/login with a browser user agent is a 4xx with a message", async () => {
    const html = await send("/auth/login", { headers: { accept: "text/html" } });
    expect(html.status).toBe(400);
    expect(html.body).toContain("Shopify admin");
    const json = await send("/auth/login", { headers: { accept: "application/json" } });
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body).error.code).toBe("bad_request");
    // With a shop, the login path starts the Shopify authorization.
    const shop = await send("/auth/login?shop=some-shop.myshopify.com");
    expect(shop.status).toBe(302);
    expect(shop.headers.location).toBe("/api/auth/authorize?shop=some-shop.myshopify.com");
  });

  it("an embedded launch without shop or host ends in that 4xx, not a 500", async () => {
    const first = await send("/admin/dashboard?embedded=1");
    expect(first.status).toBe(302);
    const next = await send(new URL(first.headers.location!, "http://x").pathname);
    expect(next.status).toBe(400);
  });

  it.each([
    ["a foreign site", "https://evil.example"],
    ["a sandboxed page (null)", "null"],
    ["an unparsable value", "not a url"],
  ])("a document POST with an Origin from %s is a 403 with a message, and no stack trace", async (_, origin) => {
    for (const path of ["/login", "/staff/login", "/portal/demo-store/signup", "//evil.example/"]) {
      const answer = await send(path, {
        method: "POST",
        headers: { origin, "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        chunks: [Buffer.from("email=a%40b.example&password=x")],
      });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain("another site");
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it("a forwarded host that does not match the Origin is refused the same way", async () => {
    const answer = await send("/login", {
      method: "POST",
      headers: { origin: server.url(""), "x-forwarded-host": "evil.example", accept: "application/json" },
      chunks: [Buffer.from("a=b")],
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.code).toBe("forbidden");
  });

  it("a same-origin document POST, a data request and a resource route are left to the route", async () => {
    const own = new URL(server.url("")).origin;
    const same = await send("/login", {
      method: "POST",
      headers: { origin: own, "content-type": "application/x-www-form-urlencoded" },
      chunks: [Buffer.from("email=a%40b.example&password=wrong-password")],
    });
    expect(same.status).not.toBe(403);
    expect(same.status).toBeLessThan(500);
    // The Web Pixel posts from the shop's checkout: another origin, by design.
    const pixel = await send("/api/pixel/checkout-completed", {
      method: "POST",
      headers: { origin: "https://some-shop.myshopify.com", "content-type": "application/json" },
      chunks: [Buffer.from(JSON.stringify({ shop: "nope.myshopify.com", checkout_token: "abc" }))],
    });
    expect(pixel.status).toBe(404);
  });

  it("a Host or X-Forwarded-Host that makes no URL is a 400", async () => {
    const cases: Record<string, string>[] = [{ host: "[::1" }, { "x-forwarded-host": "a b:99999" }];
    for (const headers of cases) {
      const answer = await send("/login", { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(400);
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it.each([
    ["/auth/exit-iframe", 400],
    ["/auth/exit-iframe?exitIframe=javascript:alert(1)", 400],
    ["/auth/exit-iframe?exitIframe=https%3A%2F%2Fevil.example%2F", 400],
    ["/auth/session-token?shop=evil.myshopify.com%0A%5Berror%5D%20forged", 400],
    ["/auth/session-token?shop=not-a-shop", 400],
  ])("GET %s is a %i, never a 500", async (path, status) => {
    const answer = await send(path);
    expect(answer.status).toBe(status);
    expect(errors).not.toHaveBeenCalled();
  });
});
