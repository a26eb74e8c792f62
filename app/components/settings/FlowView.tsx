import { useParams } from "@remix-run/react";
import { Banner, BlockStack, Card, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

interface Item {
  handle: string;
  name: string;
}

export interface FlowViewData {
  reachable: boolean;
  triggers: Item[];
  actions: Item[];
}

/** Settings › Shopify Flow: what the app offers Flow, a sentence each, and whether Flow reaches the shop. */
export function FlowView({ data }: { data: FlowViewData }) {
  const { t } = useTranslation(["Settings.Integrations", "Global"]);
  const { role } = useParams();
  const list = (kind: "triggers" | "actions", items: Item[]) => (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t(`flow.${kind}.title`)}
        </Text>
        <Text as="p" tone="subdued">
          {t(`flow.${kind}.intro`)}
        </Text>
        <BlockStack gap="200" as="ul">
          {items.map((item) => (
            <li key={item.handle} data-flow-handle={item.handle}>
              <BlockStack gap="050">
                <Text as="span" fontWeight="semibold">
                  {item.name}
                </Text>
                <Text as="span" tone="subdued">
                  {t(`flow.${kind}.${item.handle}`)}
                </Text>
              </BlockStack>
            </li>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
  return (
    <Page title={t("flow.title")} backAction={{ url: `/${role}/settings` }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("flow.intro")}
        </Text>
        <Banner
          tone={data.reachable ? "success" : "warning"}
          title={t(data.reachable ? "flow.reachable" : "flow.unreachable")}
        >
          <p>{t(data.reachable ? "flow.reachableBody" : "flow.unreachableBody")}</p>
        </Banner>
        {list("triggers", data.triggers)}
        {list("actions", data.actions)}
      </BlockStack>
    </Page>
  );
}
