// Spec section 4: what the admin does with the answer to GET /shop.
export type ShopLoadOutcome = "ok" | "login" | "ignore" | "surface";

export function shopLoadOutcome(status: number): ShopLoadOutcome {
  if (status >= 200 && status < 300) return "ok";
  if (status === 401) return "login";
  if (status === 409) return "ignore";
  return "surface";
}

export function roleLoginPath(role: "admin" | "staff"): string {
  return role === "staff" ? "/staff/login" : "/login";
}
