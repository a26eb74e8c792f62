import { expect } from "vitest";
import { TEST_PASSWORD } from "./builders";
import { HttpClient, location } from "./http-client";

// Drives the admin's route modules over HTTP the way the Remix client does:
// loaders and actions answered as data (?_data=<route id>), redirects as
// X-Remix-Redirect, plus the plain document for "what would a browser get".

export async function logInAs(url: (path: string) => string, role: "admin" | "staff", email: string) {
  const client = new HttpClient(url);
  const res = await client.postForm(role === "admin" ? "/login" : "/staff/login", { email, password: TEST_PASSWORD });
  expect(res.status).toBe(302);
  expect(location(res)).toBe(`/${role}/dashboard`);
  return new AdminClient(client);
}

function withData(path: string, routeId: string) {
  return `${path}${path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(routeId)}`;
}

export class AdminClient {
  constructor(readonly http: HttpClient) {}

  /** A loader's JSON. */
  load(path: string, routeId: string) {
    return this.http.get(withData(path, routeId));
  }

  /** An action called with a JSON body, as useFetcher().submit(..., {encType: "application/json"}) does. */
  act(path: string, routeId: string, body: unknown) {
    return this.http.postJson(withData(path, routeId), body);
  }

  /** The full HTML page. */
  document(path: string) {
    return this.http.get(path);
  }
}

/** Where a data request's redirect points (Remix answers 204 with X-Remix-Redirect). */
export function remixRedirect(res: Response): string | null {
  return res.headers.get("x-remix-redirect");
}
