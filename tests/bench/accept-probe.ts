import http from "node:http";
import net from "node:net";
import { createTurnQueue, REQUESTS_PER_TURN } from "../../app/server/turn-queue";

// When does a busy Node.js process accept a burst of new connections?
// A server whose requests each take 5 ms of CPU is kept busy by 40
// kept-alive clients; then 30 new connections arrive at once. Node.js 20 and
// later (libuv 1.45) accept one connection per turn of the event loop, and a
// turn of a busy process serves every ready socket first, so the last of the
// burst waits about 30 turns in the kernel's accept queue while each request
// itself takes 5 ms (ADR 061). The same again with the app's turn queue
// (app/server/turn-queue.ts), which starts a few requests per turn.
// Run: `npx tsx tests/bench/accept-probe.ts`.

const CPU_MS = 5;
const KEPT_ALIVE = 40;
const BURST = 30;

const burn = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

async function probe(perTurn: number | null) {
  let accepted: number[] = [];
  const answer = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    burn(CPU_MS);
    res.end("ok");
  };
  const turns = perTurn === null ? null : createTurnQueue(answer, perTurn);
  const server = http.createServer(turns ? (req, res) => turns.push(req, res) : answer);
  server.on("connection", () => accepted.push(performance.now()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: KEPT_ALIVE });
  let stop = false;
  let keptAnswers = 0;
  const lane = async () => {
    while (!stop) {
      await new Promise<void>((resolve) =>
        http
          .get({ port, host: "127.0.0.1", agent }, (res) => {
            res.resume();
            res.on("end", resolve);
          })
          .on("error", () => resolve()),
      );
      keptAnswers++;
    }
  };
  const lanes = Array.from({ length: KEPT_ALIVE }, lane);
  await new Promise((r) => setTimeout(r, 1000));
  accepted = [];
  keptAnswers = 0;
  const t0 = performance.now();
  const answered = await Promise.all(
    Array.from(
      { length: BURST },
      () =>
        new Promise<number>((resolve) => {
          const socket = net.connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
          socket.once("data", () => {
            resolve(performance.now() - t0);
            socket.destroy();
          });
        }),
    ),
  );
  const elapsed = performance.now() - t0;
  const kept = keptAnswers;
  stop = true;
  await Promise.all(lanes);
  agent.destroy();
  server.close();
  const at = (list: number[], n: number) => Math.round(list[n - 1]! - (list === accepted ? t0 : 0));
  answered.sort((a, b) => a - b);
  console.log(perTurn === null ? "  every request started at once:" : `  ${perTurn} requests started per turn:`);
  console.log(
    `    accepted after (ms): 1st ${at(accepted, 1)}, 10th ${at(accepted, 10)}, 20th ${at(accepted, 20)}, ${BURST}th ${at(accepted, BURST)}`,
  );
  console.log(
    `    answered after (ms): 1st ${at(answered, 1)}, median ${at(answered, BURST / 2)}, last ${at(answered, BURST)}; kept-alive answers meanwhile ${Math.round((kept * 1000) / elapsed)}/s`,
  );
}

async function main() {
  console.log(
    `node ${process.version}: ${BURST} new connections while ${KEPT_ALIVE} kept-alive ones keep the server busy (${CPU_MS} ms of CPU per request)`,
  );
  await probe(null);
  await probe(REQUESTS_PER_TURN);
}

void main();
