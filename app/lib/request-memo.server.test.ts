import { describe, expect, it } from "vitest";
import { memoForRequest } from "./request-memo.server";

const get = () => new Request("http://app.test/admin/dashboard");
const post = () => new Request("http://app.test/admin/settings", { method: "POST", body: "x=1" });

describe("memoForRequest", () => {
  it("computes once per load context and key for reads", async () => {
    const context = {};
    let calls = 0;
    const compute = async () => ++calls;
    const answers = await Promise.all([
      memoForRequest(get(), context, "user", compute),
      memoForRequest(get(), context, "user", compute),
      memoForRequest(new Request("http://app.test/x", { method: "HEAD" }), context, "user", compute),
    ]);
    expect(answers).toEqual([1, 1, 1]);
    expect(await memoForRequest(get(), context, "other", compute)).toBe(2);
  });

  it("does not share between requests (load contexts)", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    expect(await memoForRequest(get(), {}, "user", compute)).toBe(1);
    expect(await memoForRequest(get(), {}, "user", compute)).toBe(2);
  });

  it("computes every time for writes (the loaders after an action see its changes) and without a context", async () => {
    const context = {};
    let calls = 0;
    const compute = async () => ++calls;
    expect(await memoForRequest(post(), context, "user", compute)).toBe(1);
    expect(await memoForRequest(post(), context, "user", compute)).toBe(2);
    expect(await memoForRequest(get(), undefined, "user", compute)).toBe(3);
    expect(await memoForRequest(get(), undefined, "user", compute)).toBe(4);
  });

  it("shares a failure like an answer", async () => {
    const context = {};
    let calls = 0;
    const compute = async () => {
      calls++;
      throw new Error("database down");
    };
    await expect(memoForRequest(get(), context, "user", compute)).rejects.toThrow("database down");
    await expect(memoForRequest(get(), context, "user", compute)).rejects.toThrow("database down");
    expect(calls).toBe(1);
  });
});
