// A request that ended in an unexpected error is a bug: one log line with the
// method and path (JSON-encoded, so a crafted path cannot forge log lines) and
// the stack. Nothing of it reaches the client.
export function logUnexpected(request: Request, error: unknown) {
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // keep the raw value; it is encoded below
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`[route] unexpected error on ${request.method} ${JSON.stringify(path)}: ${detail}`);
}
