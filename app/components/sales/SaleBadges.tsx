import { useMemo } from "react";
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

/**
 * A sale's status. A list passes `label` (from useSaleLabels): a
 * `useTranslation` and a `t` for each row's badge were a tenth of the sales
 * list's server CPU (ADR 055).
 */
export function SaleStatusBadge({ status, label }: { status: string; label?: string }) {
  if (label === undefined) return <TranslatedSaleStatusBadge status={status} />;
  return <Badge tone={STATUS_TONE[status]}>{label}</Badge>;
}

function TranslatedSaleStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("Sales");
  return <Badge tone={STATUS_TONE[status]}>{t(`statuses.${status}`, { defaultValue: status })}</Badge>;
}

/** A sale's attribution source in words; `t` reads the Sales namespace. */
export function saleSourceLabel(t: TFunction, source: string): string {
  return t(`Sales:sources.${source}`, { defaultValue: source });
}

export interface SaleLabels {
  status(status: string): string;
  source(source: string): string;
}

/**
 * The words for a list's statuses and sources, each looked up once a render
 * however many rows show it (i18next's `t` costs tens of microseconds a
 * call). Not kept across renders: a language or an override that changes
 * is read on the next render, as with `t` itself.
 */
export function useSaleLabels(): SaleLabels {
  const { t } = useTranslation("Sales");
  // One object per language (t changes with it), so memoised rows that take
  // it re-render only when the words do.
  return useMemo(() => {
    const words = new Map<string, string>();
    const once = (key: string, fallback: string) => {
      let word = words.get(key);
      if (word === undefined) {
        word = t(key, { defaultValue: fallback });
        words.set(key, word);
      }
      return word;
    };
    return {
      status: (status) => once(`statuses.${status}`, status),
      source: (source) => once(`sources.${source}`, source),
    };
  }, [t]);
}

export function SourceBadge({ source }: { source: string }) {
  const { t } = useTranslation("Sales");
  return <Badge tone={source === "none" ? undefined : "info"}>{saleSourceLabel(t, source)}</Badge>;
}
