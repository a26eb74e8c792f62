import { BlockStack, Card, List, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { affiliateRoute } from "~/door/affiliate-route.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Account.Guide"], portal: true, title: "Account.Common:nav.guide" };

// Nothing to load, but only a logged-in affiliate may see the page.
export const loader = /* @__PURE__ */ affiliateRoute({}, async () => null);

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
