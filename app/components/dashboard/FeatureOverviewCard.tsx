import { BlockStack, Box, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { FEATURES, type AreaCheck } from "~/lib/dashboard-access";

// Spec section 2's feature overview list, each with the screen it lives on;
// only the features whose screen this user may open.
export function FeatureOverviewCard({ role, can }: { role: string; can: AreaCheck }) {
  const { t } = useTranslation("FeatureOverview");
  const features = FEATURES.filter((f) => can(f.area));
  if (!features.length) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("title")}
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
          {features.map((f) => (
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
