import { describe, expect, it } from "vitest";
import { nextStatus } from "./status-transitions";

describe("affiliate status transitions", () => {
  it.each([
    ["approve", "pending", "approved"],
    ["approve", "denied", "approved"],
    ["approve", "inactive", "approved"],
    ["approve", "approved", null],
    ["deny", "pending", "denied"],
    ["deny", "approved", null],
    ["deny", "denied", null],
    ["deny", "inactive", null],
    ["deactivate", "approved", "inactive"],
    ["deactivate", "pending", null],
    ["deactivate", "denied", null],
    ["deactivate", "inactive", null],
  ] as const)("%s from %s gives %s", (action, from, to) => {
    expect(nextStatus(action, from)).toBe(to);
  });
});
