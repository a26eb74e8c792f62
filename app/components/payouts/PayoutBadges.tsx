import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

const TONE: Record<string, "info" | "attention" | "success" | "critical" | undefined> = {
  pending: "attention",
  processing: "info",
  paid: "success",
  failed: "critical",
  cancelled: undefined,
};

export function PayoutStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("Payouts");
  return <Badge tone={TONE[status]}>{t(`statuses.${status}`, { defaultValue: status })}</Badge>;
}
