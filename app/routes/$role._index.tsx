import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isRole } from "~/lib/areas";
import { notFound } from "~/models/auth/require-merchant.server";

export function loader({ params, request }: LoaderFunctionArgs) {
  // "/{anything}" matches this route too: only a role has a dashboard.
  if (!isRole(params.role)) throw notFound();
  const { search } = new URL(request.url);
  return redirect(`/${params.role}/dashboard${search}`);
}

// A page route, not a resource route, so that the 404 above is shown as the
// not-found page rather than as bare JSON. Never renders: the loader always
// redirects or throws.
export default function RoleIndex() {
  return null;
}
