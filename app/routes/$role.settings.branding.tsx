import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { BrandingSettingsForm } from "~/components/settings/BrandingSettingsForm";
import { merchantRoute } from "~/door/merchant-route.server";
import { MAX_IMAGE_BYTES, storeUploadedImage } from "~/models/storage/asset-storage.server";
import { brandingSchema } from "~/models/settings/branding";
import { getBranding, saveBranding } from "~/models/settings/branding.server";
import type { RouteHandle } from "~/i18n/route-handle";

// Settings > Branding: logo, colours, font and favicon of the affiliate
// portal. Images go through the portal images' storage and upload checks.
export const handle: RouteHandle = {
  i18n: ["Settings.Branding", "Settings", "Global", "Portals", "Creatives"],
  title: "Settings.Branding:title",
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db }) => ({
  branding: await getBranding(db),
}));

const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("upload"),
    image: z
      .instanceof(File, { message: "Choose an image to upload." })
      .refine((file) => file.size <= MAX_IMAGE_BYTES, "Images can be at most 2 MB."),
  }),
  brandingSchema.extend({ intent: z.literal("save") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: actionSchema },
  async ({ db, shop, body }) => {
    if (body.intent === "upload") {
      const bytes = new Uint8Array(await body.image.arrayBuffer());
      return { uploaded: await storeUploadedImage(shop.id, body.image.name, bytes) };
    }
    const { intent: _intent, ...branding } = body;
    return { saved: await saveBranding(db, branding) };
  },
);

export default function BrandingSettings() {
  return <BrandingSettingsForm branding={useLoaderData<typeof loader>().branding} />;
}

export { RouteErrorBoundary as ErrorBoundary };
