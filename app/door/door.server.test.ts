import { describe, expect, it } from "vitest";
import { DatabaseBusyError } from "../db/sqlite-adapter.server";
import { TemplateLimitError } from "../models/notifications/template-threads.server";
import { errorResponse } from "./door.server";

// What the machine's refusals become when a request runs into them: a lock
// held too long, or a request's own e-mail (an invite) finding every
// template thread busy or out of time, is a busy machine, so 503 with
// Retry-After; a template output over the cap is a bug and stays a 500.
describe("errorResponse for work the machine stopped", () => {
  const request = new Request("http://app.test/admin/settings/staff", { method: "POST" });
  it.each([
    { name: "template time", error: () => new TemplateLimitError("time"), status: 503, retry: true },
    { name: "template busy", error: () => new TemplateLimitError("busy"), status: 503, retry: true },
    { name: "template output", error: () => new TemplateLimitError("output"), status: 500, retry: false },
    { name: "SQLite lock", error: () => new DatabaseBusyError(5_000), status: 503, retry: true },
    { name: "an unknown error", error: () => new Error("boom"), status: 500, retry: false },
  ])("$name → $status", async ({ error, status, retry }) => {
    const answer = errorResponse(error(), request);
    expect(answer.status).toBe(status);
    expect(answer.headers.has("Retry-After")).toBe(retry);
    // Never the error's own words (they name a limit, not what to do).
    const body = JSON.stringify(await answer.json());
    expect(body).not.toContain("template");
    expect(body).not.toContain("locked");
  });
});
