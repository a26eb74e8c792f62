import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { accountContext } from "~/models/affiliate-account/account-loader.server";

export const handle = { i18n: ["Account.Creatives", "Account.Common"], portal: true };

export async function loader({ request }: LoaderFunctionArgs) {
  await accountContext(request);
  return json(null);
}

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
