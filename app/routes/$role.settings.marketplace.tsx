import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { MarketplaceSettingsForm } from "~/components/settings/MarketplaceSettingsForm";
import { merchantRoute } from "~/door/merchant-route.server";
import { checkListing, listingFields } from "~/models/marketplace/listing-form";
import { marketplaceSettings, saveMarketplaceListing } from "~/models/marketplace/listing.server";
import { MAX_IMAGE_BYTES, storeUploadedImage } from "~/models/storage/asset-storage.server";
import type { RouteHandle } from "~/i18n/route-handle";

// Settings > Marketplace: the shop's offer on the public marketplace
// (/marketplace). The logo is uploaded at once through the portal images'
// storage (as Branding's logo) and takes effect when the offer is saved.
export const handle: RouteHandle = {
  i18n: ["Settings.Marketplace", "Account.Common", "Settings", "Global", "Portals", "Creatives"],
  title: "Settings.Marketplace:title",
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db }) => marketplaceSettings(db));

// A JSON body without an intent is the offer (API clients of the admin posted it so before uploads).
const actionSchema = z.preprocess(
  (body) => (body && typeof body === "object" && !("intent" in body) ? { ...body, intent: "save" } : body),
  z
    .discriminatedUnion("intent", [
      z.object({
        intent: z.literal("upload"),
        image: z
          .instanceof(File, { message: "Choose an image to upload." })
          .refine((file) => file.size <= MAX_IMAGE_BYTES, "Images can be at most 2 MB."),
      }),
      listingFields.extend({ intent: z.literal("save") }),
    ])
    .superRefine((body, ctx) => {
      if (body.intent === "save") checkListing(body, ctx);
    }),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: actionSchema },
  async ({ db, shop, body }) => {
    if (body.intent === "upload") {
      const bytes = new Uint8Array(await body.image.arrayBuffer());
      return { uploaded: await storeUploadedImage(shop.id, body.image.name, bytes) };
    }
    const { intent: _intent, ...listing } = body;
    return { listing: await saveMarketplaceListing(db, listing) };
  },
);

export default function MarketplaceSettings() {
  return <MarketplaceSettingsForm data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
