import { redirect } from "@remix-run/node";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { endMerchantSession } from "~/models/auth/user-session.server";

// POST /logout (role=staff goes back to the staff login page).
const body = z.object({ role: z.enum(["admin", "staff"]).catch("admin") });

export const action = /* @__PURE__ */ publicRoute({ scheme: "page", body }, async ({ request, body }) =>
  redirect(body.role === "staff" ? "/staff/login" : "/login", {
    headers: { "Set-Cookie": await endMerchantSession(request) },
  }),
);

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async () => redirect("/login"));
