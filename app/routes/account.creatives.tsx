import { Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { affiliateRoute } from "~/door/affiliate-route.server";

export const handle = { i18n: ["Account.Creatives", "Account.Common"], portal: true };

// Nothing to load, but only a logged-in affiliate may see the page.
export const loader = /* @__PURE__ */ affiliateRoute({}, async () => null);

// Creatives (merchant images to download) need the Creatives admin screen,
// which is not built yet; the page says so rather than showing an empty list.
export default function AccountCreatives() {
  const { t } = useTranslation("Account.Creatives");
  return (
    <AccountPage title={t("title")}>
      <Card>
        <Text as="p">{t("notBuilt")}</Text>
      </Card>
    </AccountPage>
  );
}
