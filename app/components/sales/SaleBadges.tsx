import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

type Tone = "success" | "attention" | "critical" | "info" | undefined;

const STATUS_TONE: Record<string, Tone> = {
  pending: "attention",
  approved: "success",
  denied: "critical",
  paid: "info",
};

export function SaleStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("Sales");
  return <Badge tone={STATUS_TONE[status]}>{t(`statuses.${status}`, { defaultValue: status })}</Badge>;
}

export function SourceBadge({ source }: { source: string }) {
  const { t } = useTranslation("Sales");
  return (
    <Badge tone={source === "none" ? undefined : "info"}>{t(`sources.${source}`, { defaultValue: source })}</Badge>
  );
}
