import { BlockStack, Box, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

// Spec section 2's feature overview list, each with the screen it lives on.
const FEATURES = [
  { key: "portalPages", path: "portals" },
  { key: "mlm", path: "campaigns" },
  { key: "creatives", path: "creatives" },
  { key: "customDomain", path: "settings" },
  { key: "payouts", path: "paypal/connect" },
  { key: "referralsReward", path: "referrals" },
] as const;

export function FeatureOverviewCard({ role }: { role: string }) {
  const { t } = useTranslation("FeatureOverview");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("title")}
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
          {FEATURES.map((f) => (
            <Box key={f.key} padding="300" borderColor="border" borderWidth="025" borderRadius="200">
              <BlockStack gap="100">
                <Text as="h3" variant="headingSm">
                  {t(f.key)}
                </Text>
                <Text as="p" tone="subdued">
                  {t(`descriptions.${f.key}`)}
                </Text>
                <Link url={`/${role}/${f.path}`}>{t("open")}</Link>
              </BlockStack>
            </Box>
          ))}
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}
