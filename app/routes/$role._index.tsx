import { redirect } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";

// "/{anything}" matches this route too: the door answers 404 for anything but
// a role (before asking anyone to log in); a role goes to its dashboard.
export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async ({ role, request }) => {
  const { search } = new URL(request.url);
  return redirect(`/${role}/dashboard${search}`);
});

// A page route, not a resource route, so that the 404 above is shown as the
// not-found page rather than as bare JSON. Never renders: the loader always
// redirects or throws.
// Shown only with the loader's 404 (a first segment that is no role).
export const handle: RouteHandle = { title: "Global:notFound.title" };

export default function RoleIndex() {
  return null;
}
