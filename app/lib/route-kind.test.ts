import { describe, expect, it } from "vitest";
import { routeKind } from "./route-kind";

describe("routeKind", () => {
  it.each([
    ["/healthz", "ops"],
    ["/readyz", "ops"],
    ["/metrics", "ops"],
    ["/metrics/x", "other"],
    ["/r/demo-store/NOAHM13", "click"],
    ["/r/NOAHM13?to=/products/x", "click"],
    ["/webhooks", "webhook"],
    ["/build/root-ABC.js", "asset"],
    ["/locales/de/Global.json", "asset"],
    ["/favicon.ico", "asset"],
    ["/api/v1/sales?limit=5", "api"],
    ["/api/auth", "api"],
    ["/proxy/click?code=A", "proxy"],
    ["/admin", "admin"],
    ["/admin/affiliates?_data=routes%2F%24role.affiliates._index", "admin"],
    ["/staff/affiliates", "admin"],
    ["/staff/login", "auth"],
    ["/staff/get-password", "auth"],
    ["/admin/login", "auth"],
    ["/creative-files/s1/a.png", "asset"],
    ["/portal-assets/x", "asset"],
    ["/mail/preferences", "affiliate"],
    ["/account/payouts", "affiliate"],
    ["/portal/demo-store/signup", "affiliate"],
    ["/auth", "auth"],
    ["/login", "auth"],
    ["/", "other"],
    ["/signup", "other"],
    ["/a.b/c", "other"],
  ])("%s is %s", (path, kind) => {
    expect(routeKind(path)).toBe(kind);
  });
});
