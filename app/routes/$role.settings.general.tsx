import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { GeneralSettingsForm } from "~/components/settings/GeneralSettingsForm";
import { areaPage, merchantRoute } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { shopUpdateSchema } from "~/models/shop/shop-update-schema";
import { updateShop } from "~/models/shop/update-shop.server";

// Settings › General: the shop fields of the spec's shop record (language,
// money format, link parameter). The form reads them from the shell; the
// save is the same update as POST /api/shop, with the same schema.
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.general" };

export const loader = /* @__PURE__ */ areaPage("settings");

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: shopUpdateSchema, bodyType: "json" },
  async ({ db, body }) => ({ saved: await updateShop(db, body) }),
);

export default function GeneralSettings() {
  return <GeneralSettingsForm />;
}

export { RouteErrorBoundary as ErrorBoundary };
