import { json } from "@remix-run/node";
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

// /account/... without a session and without a known portal: the affiliate
// must start from their store's affiliate login page.
export const handle = { i18n: ["Account.Common"], portal: true };

export function loader() {
  return json(null, { status: 401 });
}

export default function LoginNeeded() {
  const { t } = useTranslation("Account.Common");
  return (
    <div className="portal-body">
      <main className="portal-main portal-narrow">
        <Card>
          <BlockStack gap="200">
            <Text as="h1" variant="headingLg">
              {t("loginNeeded.title")}
            </Text>
            <Text as="p">{t("loginNeeded.text")}</Text>
          </BlockStack>
        </Card>
      </main>
    </div>
  );
}
