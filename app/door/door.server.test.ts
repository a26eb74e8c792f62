import { describe, expect, it } from "vitest";
import { TemplateLimitError } from "../models/notifications/template-threads.server";
import { errorResponse } from "./door.server";

// What a template thread's refusal becomes when a request's own e-mail (an
// invite) runs into it: the machine was busy, so 503 with Retry-After, as a
// busy database answers; an output over the cap is a bug and stays a 500.
describe("errorResponse for a template render a limit stopped", () => {
  const request = new Request("http://app.test/admin/settings/staff", { method: "POST" });
  it.each([
    { limit: "time" as const, status: 503, retry: true },
    { limit: "busy" as const, status: 503, retry: true },
    { limit: "output" as const, status: 500, retry: false },
  ])("$limit → $status", async ({ limit, status, retry }) => {
    const answer = errorResponse(new TemplateLimitError(limit), request);
    expect(answer.status).toBe(status);
    expect(answer.headers.has("Retry-After")).toBe(retry);
    // Never the error's own words (they name a limit, not what to do).
    expect(JSON.stringify(await answer.json())).not.toContain("template");
  });
});
