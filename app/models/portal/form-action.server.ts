import { json, type HeadersFunction } from "@remix-run/node";
import { AppError, errorBody } from "../../lib/errors";

/**
 * Runs a portal form action. AppErrors come back as the page's action data
 * (with the 4xx status and the values typed, minus passwords, so the form
 * is filled in again); redirects and other responses pass through.
 */
export async function portalFormAction(request: Request, fn: (form: Record<string, string>) => Promise<Response>) {
  let form: Record<string, string> = {};
  try {
    const data = await request.clone().formData();
    form = Object.fromEntries([...data.entries()].filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    // parseForm inside fn reports an unreadable form.
  }
  try {
    return await fn(form);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body, headers } = errorBody(error);
    const values = Object.fromEntries(Object.entries(form).filter(([k]) => !/password|confirm|token/i.test(k)));
    return json({ ...body, values }, { status, headers });
  }
}

export type PortalActionData = {
  error?: { code: string; message: string; fields?: Record<string, string> };
  values?: Record<string, string>;
  done?: boolean;
};

/** A portal form's document headers: a throttled action's Retry-After reaches the browser. */
export const portalActionHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
