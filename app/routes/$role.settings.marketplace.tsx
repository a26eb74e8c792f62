import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { MarketplaceSettingsForm } from "~/components/settings/MarketplaceSettingsForm";
import { merchantRoute } from "~/door/merchant-route.server";
import { listingFormSchema } from "~/models/marketplace/listing-form";
import { marketplaceSettings, saveMarketplaceListing } from "~/models/marketplace/listing.server";

// Settings > Marketplace: the shop's offer on the public marketplace (/marketplace).
export const handle = { i18n: ["Settings.Marketplace", "Account.Common", "Settings", "Global"] };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db }) => marketplaceSettings(db));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: listingFormSchema },
  async ({ db, body }) => ({ listing: await saveMarketplaceListing(db, body) }),
);

export default function MarketplaceSettings() {
  return <MarketplaceSettingsForm data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
