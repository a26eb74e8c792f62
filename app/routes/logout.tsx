import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endMerchantSession } from "~/models/auth/user-session.server";

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  const role = form?.get("role") === "staff" ? "staff" : "admin";
  return redirect(role === "staff" ? "/staff/login" : "/login", {
    headers: { "Set-Cookie": await endMerchantSession(request) },
  });
}

export function loader() {
  return redirect("/login");
}
