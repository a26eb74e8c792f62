import { redirect } from "@remix-run/node";

// /{role}/login for the admin role is the main login page.
export function loader() {
  return redirect("/login");
}
