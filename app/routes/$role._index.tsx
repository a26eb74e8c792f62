import { redirect } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async ({ role, request }) => {
  const { search } = new URL(request.url);
  return redirect(`/${role}/dashboard${search}`);
});
