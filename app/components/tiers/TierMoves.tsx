import { BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";
import { tierReasonText } from "../../models/tiers/evaluate-tiers";

// The affiliate page's record of auto-tier moves, each with its reason in the reader's language.
export function TierMoves({
  moves,
  campaigns,
  timeZone,
}: {
  moves: {
    id: string;
    fromCampaignId: string;
    toCampaignId: string;
    reason: string;
    reasonKey: string;
    reasonValues: string;
    undo: string | null;
    createdAt: string;
  }[];
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
              m.undo
                ? `${tierReasonText(t as never, m, format.money)} (${t(`Settings:autotier.moveUndo.${m.undo}`)})`
                : tierReasonText(t as never, m, format.money),
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
