import { redirect } from "@remix-run/node";

// Spec: / redirects to login.
export function loader() {
  return redirect("/login");
}
