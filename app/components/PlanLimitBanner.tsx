import { Badge, Banner, Box } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";

type Limit = "affiliates" | "campaigns";
type Usage = { over: boolean; count: number; max: number | null };

/** Over a limit the plan has (a plan without one is never over it): the banner shows. */
function overLimit(usage: Usage | undefined): usage is Usage & { max: number } {
  return Boolean(usage?.over && usage.max !== null);
}

/**
 * Whether a list shows plan text (its over-limit banner, a read-only badge):
 * only then does its document carry the Plans namespace (handle.i18nShown).
 */
export function listShowsPlanLimit(data: unknown): boolean {
  const list = data as { planLimit?: Usage; readOnly?: { ids: string[] } } | undefined;
  return overLimit(list?.planLimit) || Boolean(list?.readOnly?.ids.length);
}

interface PlanLimitProps {
  limit: Limit;
  usage: Usage;
  readOnly?: { count: number; names: string[] };
  plansUrl: string | null;
}

/**
 * Over the plan's limit after a downgrade: everything stays readable; the
 * banner says why nothing can be added and which rows are read-only (the
 * newest ones by creation order, docs/decisions/029).
 */
export function PlanLimitBanner(props: PlanLimitProps) {
  // The banner's text is asked for only when it shows (a list without it goes without Plans).
  return overLimit(props.usage) ? <OverLimitBanner {...props} max={props.usage.max} /> : null;
}

function OverLimitBanner({ limit, usage, max, readOnly, plansUrl }: PlanLimitProps & { max: number }) {
  const { t, ready } = useTranslation("Plans");
  const format = useFormat();
  if (!ready) return null;
  const more = readOnly ? readOnly.count - readOnly.names.length : 0;
  return (
    <Box paddingBlockEnd="400">
      <Banner tone="warning" action={plansUrl ? { content: t("upgradeAction"), url: plansUrl } : undefined}>
        <p>
          {t(limit === "affiliates" ? "overLimitAffiliates" : "overLimitCampaigns", {
            count: usage.count,
            max: format.number(max),
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

/** A list row the plan keeps read-only. */
export function ReadOnlyBadge() {
  const { t, ready } = useTranslation("Plans");
  return ready ? <Badge tone="warning">{t("readOnlyBadge")}</Badge> : null;
}
