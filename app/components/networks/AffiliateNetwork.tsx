import { useParams } from "@remix-run/react";
import { BlockStack, Card, InlineStack, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { Level, type LevelData } from "./NetworkTree";

// The affiliate page's place in the MLM tree: the uplines above (who earn on
// this affiliate's sales) and the downline below, opened level by level.
export function AffiliateNetwork({
  affiliateId,
  uplines,
  downline,
}: {
  affiliateId: string;
  uplines: { id: string; name: string; level: number }[];
  downline: LevelData;
}) {
  const { t } = useTranslation(["Settings", "Affiliates"]);
  const { role } = useParams();
  return (
    <Card>
      <BlockStack gap="200">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            {t("Settings:networks.treeTitle")}
          </Text>
          <Link url={`/${role}/settings/networks`}>{t("Settings:networks.levelsTitle")}</Link>
        </InlineStack>
        <Text as="p" tone="subdued">
          {uplines.length
            ? t("Settings:networks.uplinePath", {
                path: [...uplines]
                  .reverse()
                  .map((u) => u.name)
                  .join(" → "),
              })
            : t("Settings:networks.noUplines")}
        </Text>
        {downline.members.length ? (
          <Level parent={affiliateId} level={2} initial={downline} source="affiliates" />
        ) : (
          <Text as="p" tone="subdued">
            {t("Affiliates:detail.noRecruits")}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
