import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { formatDateIn } from "~/i18n/format";

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

// Server and browser must print the same text (hydration): the page's
// language (a BCP 47 tag) and a fixed zone.
export const formatDate = (iso: string, tag: string) => formatDateIn(tag, iso, "UTC");
export const formatDateTime = (iso: string, tag: string) => `${formatDateIn(tag, iso, "UTC", true)} UTC`;
