import { encodeExplanation, type ExplanationPart, type RateSource } from "./commission-explanation";

// Pure commission arithmetic on integer minor units. A commission line is
// rounded half-up once, after its exact parts are added up
// (docs/decisions/005-money-and-rounding.md).

/** amount × basisPoints / 10 000, rounded half-up; amount must be >= 0. */
export function percentOf(amountMinor: number, basisPoints: number): number {
  if (!Number.isInteger(amountMinor) || !Number.isInteger(basisPoints)) {
    throw new TypeError("percentOf takes integer minor units and integer basis points");
  }
  if (amountMinor < 0 || basisPoints < 0) throw new RangeError("percentOf takes non-negative values");
  // Integer arithmetic: exact while amount × bps stays below 2^53 (amounts up
  // to about 9 × 10^11 minor units at 100 %).
  return Math.floor((amountMinor * basisPoints + 5_000) / 10_000);
}

/** Half-up rounding of numerator / denominator for non-negative integers. */
function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

export type CommissionType = "percent" | "flat_item" | "flat_order";

export interface CommissionRuleTerms {
  targetType: "product" | "collection";
  targetGid: string;
  kind: "rate" | "exclude";
  commissionType: "percent" | "flat_item";
  value: number;
}

export interface LevelTerms {
  level: number; // 2..n
  basis: "percent_of_sale" | "percent_of_commission";
  rate: number; // basis points
}

export interface CampaignTerms {
  commissionType: CommissionType;
  commissionValue: number; // bps for percent, minor units for flat types
  newCustomerValue: number | null;
  rules: CommissionRuleTerms[];
  levels: LevelTerms[];
}

export interface CommissionLineInput {
  id: string;
  productGid: string | null;
  quantity: number;
  amount: number; // minor units after discounts
}

export interface CommissionInput {
  currency: string;
  lines: CommissionLineInput[];
  isNewCustomer: boolean;
  collectionsByProduct?: Record<string, readonly string[]>;
  // The order's basis before any refund: flat-per-order commissions shrink in
  // proportion when part of the order is refunded.
  originalBasis?: number;
  // Affiliate ids by level: [level 1, level 2, ...]; null where an upline is
  // missing or not approved (that level earns nothing).
  chain: (string | null)[];
}

export interface CommissionResult {
  affiliateId: string;
  level: number;
  amount: number;
  explanation: string;
}

export interface CommissionOutcome {
  basis: number; // commissionable amount (excluded lines left out)
  lines: CommissionResult[];
}

type LineTerms = { mode: "exclude" } | { mode: "percent" | "flat_item"; value: number; source: RateSource };

function termsForLine(line: CommissionLineInput, campaign: CampaignTerms, input: CommissionInput): LineTerms {
  const product = line.productGid
    ? campaign.rules.find((r) => r.targetType === "product" && r.targetGid === line.productGid)
    : undefined;
  const collections = (line.productGid && input.collectionsByProduct?.[line.productGid]) || [];
  const collection = product
    ? undefined
    : campaign.rules.find((r) => r.targetType === "collection" && collections.includes(r.targetGid));
  const rule = product ?? collection;
  if (rule?.kind === "exclude") return { mode: "exclude" };
  if (rule)
    return {
      mode: rule.commissionType,
      value: rule.value,
      source: rule.targetType === "product" ? "productRule" : "collectionRule",
    };
  const base =
    input.isNewCustomer && campaign.newCustomerValue !== null ? campaign.newCustomerValue : campaign.commissionValue;
  const source = input.isNewCustomer && campaign.newCustomerValue !== null ? "newCustomer" : "campaign";
  if (campaign.commissionType === "flat_order") return { mode: "percent", value: 0, source };
  return { mode: campaign.commissionType, value: base, source };
}

const isRule = (source: RateSource) => source === "productRule" || source === "collectionRule";

/** Level 1 and MLM upline commissions for one order (or what remains of it). */
export function calculateCommissions(campaign: CampaignTerms, input: CommissionInput): CommissionOutcome {
  // Exact level-1 total in 1/10 000 of a minor unit, rounded once at the end.
  let exact = 0;
  let basis = 0;
  // One part per rate and source, in order of first use; per-item parts count their items.
  const parts = new Map<string, ExplanationPart>();
  let excluded = 0;
  for (const line of input.lines) {
    if (line.quantity <= 0 || line.amount <= 0) continue;
    const terms = termsForLine(line, campaign, input);
    if (terms.mode === "exclude") {
      excluded += line.amount;
      continue;
    }
    basis += line.amount;
    if (terms.mode === "percent") {
      exact += line.amount * terms.value;
      const key = `percent:${terms.value}:${terms.source}`;
      if ((campaign.commissionType !== "flat_order" || isRule(terms.source)) && !parts.has(key))
        parts.set(key, { k: "percent", bps: terms.value, source: terms.source });
    } else {
      exact += terms.value * line.quantity * 10_000;
      const key = `perItem:${terms.value}:${terms.source}`;
      const held = parts.get(key);
      parts.set(key, {
        k: "perItem",
        amount: terms.value,
        qty: (held?.k === "perItem" ? held.qty : 0) + line.quantity,
        source: terms.source,
      });
    }
  }
  let level1 = Math.floor((exact + 5_000) / 10_000);
  if (campaign.commissionType === "flat_order" && basis > 0) {
    const original = input.originalBasis && input.originalBasis > 0 ? input.originalBasis : basis;
    const value =
      input.isNewCustomer && campaign.newCustomerValue !== null ? campaign.newCustomerValue : campaign.commissionValue;
    level1 += original === basis ? value : divideHalfUp(value * basis, original);
    parts.set(
      "perOrder",
      original === basis
        ? { k: "perOrder", amount: value }
        : { k: "perOrderKept", amount: value, kept: basis, original },
    );
  }

  const lines: CommissionResult[] = [];
  const direct = input.chain[0];
  if (direct) {
    lines.push({
      affiliateId: direct,
      level: 1,
      amount: level1,
      explanation: encodeExplanation({ kind: "direct", parts: [...parts.values()], basis, excluded }),
    });
  }
  for (const level of [...campaign.levels].sort((a, b) => a.level - b.level)) {
    const affiliateId = input.chain[level.level - 1];
    if (!affiliateId) continue;
    const amount = level.basis === "percent_of_sale" ? percentOf(basis, level.rate) : percentOf(level1, level.rate);
    lines.push({
      affiliateId,
      level: level.level,
      amount,
      explanation: encodeExplanation({
        kind: "level",
        level: level.level,
        bps: level.rate,
        of: level.basis === "percent_of_sale" ? "sale" : "commission",
        amount: level.basis === "percent_of_sale" ? basis : level1,
      }),
    });
  }
  return { basis, lines };
}
