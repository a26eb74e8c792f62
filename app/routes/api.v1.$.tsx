import { notFoundResponse } from "~/models/api/api-route.server";

// Any other path under /api/v1 (any method): 404 JSON, never an HTML page.
export async function loader() {
  return notFoundResponse();
}

export async function action() {
  return notFoundResponse();
}
