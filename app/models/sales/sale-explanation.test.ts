import { describe, expect, it } from "vitest";
import { saleActions } from "./sale-explanation";

describe("saleActions", () => {
  it.each([
    ["pending", true],
    ["approved", false],
    ["denied", false],
    ["paid", false],
    ["void", false],
  ])("%s: approve/deny allowed = %s", (status, allowed) => {
    expect(saleActions(status)).toEqual({ canApprove: allowed, canDeny: allowed });
  });
});
