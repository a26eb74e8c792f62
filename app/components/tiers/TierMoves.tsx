import { BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";

// The affiliate page's record of auto-tier moves, each with its reason.
export function TierMoves({
  moves,
  campaigns,
  timeZone,
}: {
  moves: { id: string; fromCampaignId: string; toCampaignId: string; reason: string; createdAt: string }[];
  campaigns: { id: string; name: string }[];
  timeZone: string;
}) {
  const { t } = useTranslation(["Affiliates", "Settings"]);
  const format = useFormat();
  const name = new Map(campaigns.map((c) => [c.id, c.name]));
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("Affiliates:detail.tierMoves")}
        </Text>
        {moves.length ? (
          <DataTable
            columnContentTypes={["text", "text", "text"]}
            headings={[t("Settings:autotier.when"), t("Settings:autotier.change"), t("Settings:autotier.reason")]}
            rows={moves.map((m) => [
              format.date(m.createdAt, timeZone),
              `${name.get(m.fromCampaignId) ?? "—"} → ${name.get(m.toCampaignId) ?? "—"}`,
              m.reason,
            ])}
            verticalAlign="top"
          />
        ) : (
          <Text as="p" tone="subdued">
            {t("Affiliates:detail.noTierMoves")}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
