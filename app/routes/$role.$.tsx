import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/models/auth/require-merchant.server";

// Any unknown path under /{role}/ leads to not-found (after the usual auth).
export async function loader({ params, request }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role);
  const keep = new URLSearchParams();
  const url = new URL(request.url);
  for (const key of ["host", "shop", "embedded"]) {
    const value = url.searchParams.get(key);
    if (value) keep.set(key, value);
  }
  const q = keep.toString();
  return redirect(`/${ctx.role}/not-found${q ? `?${q}` : ""}`);
}

// A page route, not a resource route: for an unknown top-level path the
// loader's 404 is then shown as the not-found page, not as bare JSON. The
// loader always redirects or throws, so this never renders.
export default function UnknownPath() {
  return null;
}
