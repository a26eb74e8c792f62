import net from "node:net";

// Ports this process has handed out. The system may give a port it just
// released to the next bind on port 0: two calls in a row (an app's port and
// its store simulator's) once both got 39529, and the app could not listen.
const handedOut = new Set<number>();

/** A loopback port nobody listens on right now, and not one this process handed out before (for a server a test starts). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
