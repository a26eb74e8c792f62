import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { TranslationSettingsView } from "~/components/settings/TranslationSettingsView";
import { merchantRoute } from "~/door/merchant-route.server";
import { changeTranslation, translationSettings } from "~/models/translations/overrides.server";
import { translationFormSchema, translationListSchema } from "~/models/translations/translation-form";

// Settings > Translations: the merchant's own wording of what affiliates
// read (portal and e-mails), per language; a page of the key list at a time.
export const handle = { i18n: ["Settings.Translations", "Settings", "Global"] };

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
