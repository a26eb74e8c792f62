import { redirect } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";

// /{role}/login for the admin role is the main login page.
export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async () => redirect("/login"));
