import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { pageI18n } from "./i18n/i18next.server";
import { I18nPayloadContext } from "./i18n/payload";
import { errorForLog } from "./lib/log-text";
import { NonceContext } from "./lib/nonce";

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

  // renderToString, not a stream: no page suspends on the server (the chart
  // loads after hydration), and the streaming renderer's per-chunk UTF-8
  // encoding and writes cost a list page about a fifth more CPU (ADR 025). A
  // throw here is rendered again by Remix with the route's error boundary.
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={instance}>
        <I18nPayloadContext.Provider value={payload}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </I18nPayloadContext.Provider>
      </I18nextProvider>
    </NonceContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response("<!DOCTYPE html>" + html, { headers: responseHeaders, status: responseStatusCode });
}

// Unexpected loader/action errors: log with the path, never send details.
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A 4xx (wrong method, no such route) is the client's mistake, not ours.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // The pathname is percent-encoded; the error's message may quote the request.
  console.error(`[error] ${request.method} ${new URL(request.url).pathname}: ${errorForLog(error)}`);
}
