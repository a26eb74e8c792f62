import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

const TONES: Record<string, "attention" | "success" | "critical" | undefined> = {
  pending: "attention",
  approved: "success",
  denied: "critical",
  inactive: undefined,
};

/** An affiliate's status with the spec's labels (Global status.*). */
export function AffiliateStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("Global");
  return <Badge tone={TONES[status]}>{t(`status.${status}`)}</Badge>;
}

// Server and browser must print the same text (hydration): fixed locale and zone.
const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export const formatDate = (iso: string) => DATE.format(new Date(iso));
export const formatDateTime = (iso: string) => `${DATE_TIME.format(new Date(iso))} UTC`;
