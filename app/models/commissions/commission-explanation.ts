import { formatDateIn, formatMoneyIn, formatNumberIn } from "../../i18n/format";

// How a commission line was computed, stored as data (amounts in minor
// units, rates in basis points) and written out in the reader's language and
// money format when shown: "15 % (Neukunden-Satz) auf 168,00 $" in a German
// admin, English for the REST API and outgoing webhooks (ADR 020). Lines
// stored before this held English text; they are shown as they are.

export type RateSource = "campaign" | "newCustomer" | "productRule" | "collectionRule";

export type ExplanationPart =
  | { k: "percent"; bps: number; source: RateSource }
  | { k: "perItem"; amount: number; qty: number; source: RateSource }
  | { k: "perOrder"; amount: number }
  | { k: "perOrderKept"; amount: number; kept: number; original: number };

export type Explanation =
  | {
      kind: "direct";
      parts: ExplanationPart[];
      basis: number;
      excluded: number;
      // Standalone shops cannot read a product's collections: their rules were not applied.
      collectionsUnread?: boolean;
    }
  | { kind: "level"; level: number; bps: number; of: "sale" | "commission"; amount: number }
  | { kind: "refund"; refunded: number; before: number; after: number }
  | { kind: "cancelled"; amount: number }
  // A merchant's adjustment (the Flow action adjust-commission, ADR 057):
  // the note is the merchant's own words, shown as written in every language.
  | { kind: "adjustment"; amount: number; before: number; after: number; note: string }
  | {
      // A bonus rule's line (evaluate-bonus.ts): the period's figure against
      // the threshold, and the reward. Days are "YYYY-MM-DD" (the shop's days).
      kind: "bonus";
      bonus: "target" | "recurring" | "booster";
      rule: string;
      metric: "sales" | "revenue" | "commission";
      value: number;
      threshold: number;
      from: string;
      to: string;
      reward: "fixed" | "percent";
      /** Basis points of a percent reward or a booster. */
      bps: number;
      /** The amount the percent applies to (minor units); 0 for a fixed reward. */
      base: number;
      amount: number;
    };

const PREFIX = "explain:";

export function encodeExplanation(explanation: Explanation): string {
  return PREFIX + JSON.stringify(explanation);
}

/** The data of a stored explanation, or null for the English text older lines hold. */
export function decodeExplanation(text: string | null | undefined): Explanation | null {
  if (!text || !text.startsWith(PREFIX)) return null;
  try {
    const value = JSON.parse(text.slice(PREFIX.length)) as Explanation;
    return value && typeof value === "object" && typeof value.kind === "string" ? value : null;
  } catch {
    return null;
  }
}

/** A stored direct explanation with the "collection rules not applied" note added. */
export function withCollectionsUnread(text: string): string {
  const e = decodeExplanation(text);
  return e?.kind === "direct" ? encodeExplanation({ ...e, collectionsUnread: true }) : text;
}

export interface ExplanationWriter {
  /** t() with the Sales namespace loaded (keys "Sales:explain.*"). */
  t: (key: string, values?: Record<string, string | number>) => string;
  money: (minor: number) => string;
  /** Basis points as the language writes a percentage ("12.5%", "12,5 %"). */
  percent: (bps: number) => string;
  number: (value: number) => string;
  /** A shop day ("2026-03-01") in the language's date format. */
  day: (day: string) => string;
}

/** The explanation in the writer's language; older English text as it is. */
export function writeExplanation(text: string, w: ExplanationWriter): string {
  const e = decodeExplanation(text);
  if (!e) return text;
  switch (e.kind) {
    case "direct": {
      const parts = e.parts.map((p) => {
        switch (p.k) {
          case "percent":
            return w.t("Sales:explain.percent", {
              rate: w.percent(p.bps),
              source: w.t(`Sales:explain.sources.${p.source}`),
            });
          case "perItem":
            return w.t("Sales:explain.perItem", {
              amount: w.money(p.amount),
              quantity: w.number(p.qty),
              source: w.t(`Sales:explain.sources.${p.source}`),
            });
          case "perOrder":
            return w.t("Sales:explain.perOrder", { amount: w.money(p.amount) });
          case "perOrderKept":
            return w.t("Sales:explain.perOrderKept", {
              amount: w.money(p.amount),
              kept: w.money(p.kept),
              original: w.money(p.original),
            });
        }
      });
      const values = {
        parts: parts.length ? parts.join(w.t("Sales:explain.join")) : w.t("Sales:explain.nothing"),
        basis: w.money(e.basis),
        excluded: w.money(e.excluded),
      };
      const sentence = w.t(e.excluded > 0 ? "Sales:explain.directExcluded" : "Sales:explain.direct", values);
      return e.collectionsUnread ? w.t("Sales:explain.withCollectionsUnread", { sentence }) : sentence;
    }
    case "level":
      return w.t(e.of === "sale" ? "Sales:explain.levelSale" : "Sales:explain.levelCommission", {
        level: e.level,
        rate: w.percent(e.bps),
        amount: w.money(e.amount),
      });
    case "refund":
      return w.t("Sales:explain.refund", {
        refunded: w.money(e.refunded),
        before: w.money(e.before),
        after: w.money(e.after),
      });
    case "cancelled":
      return w.t("Sales:explain.cancelled", { amount: w.money(e.amount) });
    case "adjustment":
      return w.t("Sales:explain.adjustment", { note: e.note });
    case "bonus": {
      const figure = (v: number) =>
        e.metric === "sales"
          ? w.t("Sales:explain.bonus.sales", { count: v, value: w.number(v) })
          : w.t(`Sales:explain.bonus.${e.metric}`, { amount: w.money(v) });
      const reached = w.t("Sales:explain.bonus.reached", {
        figure: figure(e.value),
        from: w.day(e.from),
        to: w.day(e.to),
        threshold: figure(e.threshold),
      });
      const rate = w.percent(e.bps);
      if (e.bonus === "booster")
        return w.t(e.metric === "revenue" ? "Sales:explain.bonus.boosterAbove" : "Sales:explain.bonus.boosterOf", {
          rule: e.rule,
          reached,
          rate,
          base: w.money(e.base),
        });
      const reward =
        e.reward === "fixed"
          ? w.t("Sales:explain.bonus.fixed", { amount: w.money(e.amount) })
          : w.t("Sales:explain.bonus.percent", { rate, base: w.money(e.base) });
      return w.t(e.bonus === "target" ? "Sales:explain.bonus.target" : "Sales:explain.bonus.recurring", {
        rule: e.rule,
        reached,
        reward,
      });
    }
  }
}

/** A writer in a language (BCP 47 tag) and currency, from t() over the Sales namespace. */
export function explanationWriter(
  t: (key: string, values?: Record<string, string | number>) => string,
  tag: string,
  currency: string,
): ExplanationWriter {
  return {
    t,
    money: (minor) => formatMoneyIn(tag, minor, currency),
    percent: (bps) => formatNumberIn(tag, bps / 10_000, { style: "percent", maximumFractionDigits: 2 }),
    number: (value) => formatNumberIn(tag, value),
    day: (day) => formatDateIn(tag, `${day}T00:00:00Z`, "UTC"),
  };
}
