import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRequestObserver, noteConnection } from "./request-log";

// The request log says how long a new connection waited between its accept
// and its request, so a slow answer can be split into the time before this
// process saw the request and the time it took to answer it.

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(lines: string[], slow: string[]) {
  const observe = createRequestObserver({
    log: true,
    write: (l) => lines.push(l),
    slowMs: 60,
    writeSlow: (l) => slow.push(l),
  });
  server = http.createServer((req, res) => {
    observe(req, res);
    const wait = req.url === "/slow" ? 80 : 0;
    setTimeout(() => res.end("ok"), wait);
  });
  server.on("connection", noteConnection);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

/** Sends raw requests on one connection, the first `delayMs` after connecting; answers each response's text. */
async function onOneConnection(port: number, paths: string[], delayMs: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString()));
  for (const p of paths) {
    const before = received.length;
    socket.write(`GET ${p} HTTP/1.1\r\nHost: x\r\nX-Request-Id: t-${p.slice(1)}\r\n\r\n`);
    while (!received.slice(before).includes("\r\n\r\nok")) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  socket.destroy();
}

const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the request log's connection wait", () => {
  it("is on the first request of a connection only, and counts from the accept", async () => {
    const lines: string[] = [];
    const port = await serve(lines, []);
    await onOneConnection(port, ["/a", "/b"], 120);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [first, second] = parsed(lines);
    expect(first).toMatchObject({ id: "t-a", status: 200 });
    expect(first!.conn_wait_ms).toBeGreaterThanOrEqual(100);
    expect(second).toMatchObject({ id: "t-b", status: 200 });
    expect(second).not.toHaveProperty("conn_wait_ms");
  });

  it("is in the slow-request line of a new connection's slow request", async () => {
    const slow: string[] = [];
    const port = await serve([], slow);
    await onOneConnection(port, ["/slow"], 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [line] = parsed(slow);
    expect(line).toMatchObject({ msg: "slow request", status: 200 });
    expect(line!.ms).toBeGreaterThanOrEqual(60);
    expect(line!.conn_wait_ms).toBeGreaterThanOrEqual(0);
    expect(line!.conn_wait_ms).toBeLessThan(60);
  });
});
