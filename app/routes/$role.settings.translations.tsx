import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { TranslationSettingsView } from "~/components/settings/TranslationSettingsView";
import { merchantRoute } from "~/door/merchant-route.server";
import { changeTranslation, translationSettings } from "~/models/translations/overrides.server";
import { translationFormSchema, translationListSchema } from "~/models/translations/translation-form";
import type { RouteHandle } from "~/i18n/route-handle";

// Settings > Translations: the merchant's own wording of what affiliates
// read (portal and e-mails), per language; a page of the key list at a time.
export const handle: RouteHandle = {
  i18n: ["Settings.Translations", "Settings", "Global"],
  title: "Settings.Translations:title",
};

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "settings", query: translationListSchema },
  async ({ db, shop, query }) => translationSettings(db, shop.language, query),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: translationFormSchema },
  async ({ db, body }) => ({ key: `${body.namespace}:${body.key}`, ...(await changeTranslation(db, body)) }),
);

export default function TranslationSettings() {
  return <TranslationSettingsView data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
