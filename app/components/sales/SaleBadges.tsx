import { Badge } from "@shopify/polaris";
import type { TFunction } from "i18next";
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

/** A sale's attribution source in words; `t` reads the Sales namespace. */
export function saleSourceLabel(t: TFunction, source: string): string {
  return t(`Sales:sources.${source}`, { defaultValue: source });
}

export function SourceBadge({ source }: { source: string }) {
  const { t } = useTranslation("Sales");
  return <Badge tone={source === "none" ? undefined : "info"}>{saleSourceLabel(t, source)}</Badge>;
}
