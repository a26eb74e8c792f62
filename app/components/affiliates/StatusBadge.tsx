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
