import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { createInstance } from "i18next";
import Backend from "i18next-fs-backend";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n/i18n";
import { i18nServer, localesPath } from "./i18n/i18next.server";
import { resolveLanguage } from "./i18n/languages";
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

  const rootData = remixContext.staticHandlerContext.loaderData?.root as { locale?: string } | undefined;
  const lng = resolveLanguage(rootData?.locale);
  const ns = i18nServer.getRouteNamespaces(remixContext);
  const instance = createInstance();
  await instance
    .use(initReactI18next)
    .use(Backend)
    .init({ ...i18nConfig, lng, ns: Array.from(new Set(["Global", ...ns])), backend: { loadPath: localesPath } });

  const waitForAll = isbot(request.headers.get("user-agent") ?? "");

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={instance}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
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
