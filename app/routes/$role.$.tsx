import { redirect } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import { keptParams } from "~/lib/embedded-params";

// Any unknown path under /{role}/ leads to not-found (after the usual auth).
export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async ({ role, request }) => {
  const q = keptParams(new URL(request.url));
  return redirect(`/${role}/not-found${q ? `?${q}` : ""}`);
});
