import { redirect } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { keptParams } from "~/lib/embedded-params";

// Any unknown path under /{role}/ leads to not-found (after the usual auth).
export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async ({ role, request }) => {
  const q = keptParams(new URL(request.url));
  return redirect(`/${role}/not-found${q ? `?${q}` : ""}`);
});

// A page route, not a resource route: for an unknown top-level path the
// loader's 404 is then shown as the not-found page, not as bare JSON. The
// loader always redirects or throws, so this never renders.
// Shown only with the loader's 404 (a first segment that is no role).
export const handle: RouteHandle = { title: "Global:notFound.title" };

export default function UnknownPath() {
  return null;
}
