import type { StatusAction } from "./admin-schemas";

// Which affiliate statuses an admin action applies to. Pure, so the rules
// are one table with one test:
// - approve: a pending application, or someone denied or deactivated before;
// - deny: refuses a pending application (an approved affiliate is deactivated instead);
// - deactivate: stops an approved affiliate (their links stop crediting new sales).

export const ACTION_TARGET: Record<StatusAction, string> = {
  approve: "approved",
  deny: "denied",
  deactivate: "inactive",
};

const ALLOWED_FROM: Record<StatusAction, readonly string[]> = {
  approve: ["pending", "denied", "inactive"],
  deny: ["pending"],
  deactivate: ["approved"],
};

/** The status after `action`, or null when the action does not apply to `current`. */
export function nextStatus(action: StatusAction, current: string): string | null {
  return ALLOWED_FROM[action].includes(current) ? ACTION_TARGET[action] : null;
}

/** The statuses an action applies to, for the database filter. */
export function statusesFor(action: StatusAction): readonly string[] {
  return ALLOWED_FROM[action];
}
