import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { BlockStack, Card, List, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { accountContext } from "~/models/affiliate-account/account-loader.server";

export const handle = { i18n: ["Account.Guide"], portal: true };

export async function loader({ request }: LoaderFunctionArgs) {
  await accountContext(request);
  return json(null);
}

const STEPS = ["share", "track", "approve", "payout"] as const;

export default function AccountGuide() {
  const { t } = useTranslation("Account.Guide");
  return (
    <AccountPage title={t("title")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t("intro")}</Text>
          <List type="number">
            {STEPS.map((s) => (
              <List.Item key={s}>{t(`steps.${s}`)}</List.Item>
            ))}
          </List>
        </BlockStack>
      </Card>
    </AccountPage>
  );
}
