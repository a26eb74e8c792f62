import { Banner, Box } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";

type Limit = "affiliates" | "campaigns";

/**
 * Over the plan's limit after a downgrade: everything stays readable; the
 * banner says why nothing can be added and which rows are read-only (the
 * newest ones by creation order, docs/decisions/029).
 */
export function PlanLimitBanner({
  limit,
  usage,
  readOnly,
  plansUrl,
}: {
  limit: Limit;
  usage: { over: boolean; count: number; max: number | null };
  readOnly?: { count: number; names: string[] };
  plansUrl: string | null;
}) {
  const { t } = useTranslation("Plans");
  const format = useFormat();
  if (!usage.over || usage.max === null) return null;
  const more = readOnly ? readOnly.count - readOnly.names.length : 0;
  return (
    <Box paddingBlockEnd="400">
      <Banner tone="warning" action={plansUrl ? { content: t("upgradeAction"), url: plansUrl } : undefined}>
        <p>
          {t(limit === "affiliates" ? "overLimitAffiliates" : "overLimitCampaigns", {
            count: usage.count,
            max: format.number(usage.max),
          })}
        </p>
        {readOnly && readOnly.count > 0 ? (
          <p>
            {t(limit === "affiliates" ? "readOnlyAffiliates" : "readOnlyCampaigns", {
              number: readOnly.count,
              names: readOnly.names.join(", "),
            })}
            {more > 0 ? ` ${t("andMore", { number: more })}` : null}
          </p>
        ) : null}
      </Banner>
    </Box>
  );
}

/** On one read-only row's own screen: why its edit actions are refused. */
export function ReadOnlyBanner({ limit, plansUrl }: { limit: Limit; plansUrl: string | null }) {
  const { t } = useTranslation("Plans");
  return (
    <Banner
      tone="warning"
      title={t("readOnlyTitle")}
      action={plansUrl ? { content: t("upgradeAction"), url: plansUrl } : undefined}
    >
      <p>{t(limit === "affiliates" ? "readOnlyAffiliate" : "readOnlyCampaign")}</p>
    </Banner>
  );
}
