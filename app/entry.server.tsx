import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { pageI18n } from "./i18n/i18next.server";
import { I18nPayloadContext } from "./i18n/payload";
import { errorForLog } from "./lib/log-text";
import { NonceContext } from "./lib/nonce";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Security headers (frame-ancestors from the verified shop, the CSP and
  // its nonce) are set at the server's door: app/server/security-headers.ts.
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : undefined;

  const { instance, payload } = pageI18n(remixContext);

  const waitForAll = isbot(request.headers.get("user-agent") ?? "");

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={instance}>
          <I18nPayloadContext.Provider value={payload}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </I18nPayloadContext.Provider>
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it they reach onShellError.
          if (shellRendered) console.error(errorForLog(error));
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

// Unexpected loader/action errors: log with the path, never send details.
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A 4xx (wrong method, no such route) is the client's mistake, not ours.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // The pathname is percent-encoded; the error's message may quote the request.
  console.error(`[error] ${request.method} ${new URL(request.url).pathname}: ${errorForLog(error)}`);
}
