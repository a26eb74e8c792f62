import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import type { RewardAmount } from "~/models/referrals/referral-view";

// Badges and reward words shared by the referral history and the referral
// screen (texts in Referrals.ReferralHistory, which both routes load).

type Tone = "success" | "attention" | "critical" | "info" | undefined;

const STATUS_TONE: Record<string, Tone> = {
  pending: "attention",
  rewarded: "success",
  blocked: "critical",
  cancelled: undefined,
};

export function ReferralStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("Referrals.ReferralHistory");
  return <Badge tone={STATUS_TONE[status]}>{t(`statuses.${status}`, { defaultValue: status })}</Badge>;
}

const OUTCOME_TONE: Record<string, Tone> = { pass: "success", flag: "attention", block: "critical" };

export function CheckOutcomeBadge({ outcome }: { outcome: string }) {
  const { t } = useTranslation("Referrals.ReferralHistory");
  return <Badge tone={OUTCOME_TONE[outcome]}>{t(`outcomes.${outcome}`, { defaultValue: outcome })}</Badge>;
}

/** "Discount code · $10.00" or "Discount code · 15 %", in the page's language. */
export function useRewardText() {
  const { t } = useTranslation("Referrals.ReferralHistory");
  const format = useFormat();
  return (reward: { kind: string } & RewardAmount) => {
    const amount =
      reward.type === "percent"
        ? format.number(reward.basisPoints / 10_000, { style: "percent", maximumFractionDigits: 2 })
        : format.money(reward.amount, reward.currency);
    return `${t(`rewardKinds.${reward.kind}`, { defaultValue: reward.kind })} · ${amount}`;
  };
}
