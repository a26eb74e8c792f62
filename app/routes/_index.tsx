import { redirect } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";

// Spec: / redirects to login.
export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async () => redirect("/login"));
