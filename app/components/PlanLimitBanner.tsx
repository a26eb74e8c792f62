import { Banner, Box } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";

/** Over the plan's limit after a downgrade: everything stays readable, and the banner says why nothing can be added. */
export function PlanLimitBanner({
  limit,
  usage,
  plansUrl,
}: {
  limit: "affiliates" | "campaigns";
  usage: { over: boolean; count: number; max: number | null };
  plansUrl: string | null;
}) {
  const { t } = useTranslation("Plans");
  const format = useFormat();
  if (!usage.over || usage.max === null) return null;
  return (
    <Box paddingBlockEnd="400">
      <Banner tone="warning" action={plansUrl ? { content: t("upgradeAction"), url: plansUrl } : undefined}>
        <p>
          {t(limit === "affiliates" ? "overLimitAffiliates" : "overLimitCampaigns", {
            count: usage.count,
            max: format.number(usage.max),
          })}
        </p>
      </Banner>
    </Box>
  );
}
