import affiliateSignup from "./kinds/affiliate-signup";
import affiliateApproved from "./kinds/affiliate-approved";
import affiliateDenied from "./kinds/affiliate-denied";
import affiliateInvite from "./kinds/affiliate-invite";
import affiliateCommission from "./kinds/affiliate-commission";
import affiliateCommissionApproved from "./kinds/affiliate-commission-approved";
import affiliateCommissionReversed from "./kinds/affiliate-commission-reversed";
import affiliatePayoutSent from "./kinds/affiliate-payout-sent";
import affiliatePayoutFailed from "./kinds/affiliate-payout-failed";
import affiliateRecruit from "./kinds/affiliate-recruit";
import merchantSignup from "./kinds/merchant-signup";
import merchantSale from "./kinds/merchant-sale";
import merchantPayoutFailed from "./kinds/merchant-payout-failed";
import merchantPayoutReconciled from "./kinds/merchant-payout-reconciled";
import merchantCodeLeak from "./kinds/merchant-code-leak";
import advocateReferralReward from "./kinds/advocate-referral-reward";
import advocateShareLink from "./kinds/advocate-share-link";
import staffInvite from "./kinds/staff-invite";
import affiliatePayoutReminder from "./kinds/affiliate-payout-reminder";
import affiliateCoupon from "./kinds/affiliate-coupon";
import affiliateTierChanged from "./kinds/affiliate-tier-changed";
import affiliateReset from "./kinds/affiliate-reset";
import merchantDigest from "./kinds/merchant-digest";
import affiliateBonusApproved from "./kinds/affiliate-bonus-approved";
import affiliateTaxFormReminder from "./kinds/affiliate-tax-form-reminder";
import merchantClaimFiled from "./kinds/merchant-claim-filed";
import affiliateClaimDecided from "./kinds/affiliate-claim-decided";
import type { Audience, NotificationKind } from "./kind";

// Every e-mail notification the app sends: the kinds of kinds/, one file
// each (who gets it, whether it is transactional, the sample values of its
// template's variables, the events that send it). Adding a kind is its file,
// its line here, the event that triggers it and its default texts: the
// default wording is in the translation files (affiliate e-mails:
// Account.Common `notify.{name}`, in the affiliate's language; merchant and
// staff e-mails: Mails `notify.{name}`, in the shop's language; refer-a-friend
// advocates, who are shoppers: Account.Common `referFriend.email`, in the
// shop's language). The order is the Notifications screen's.

export type { Audience } from "./kind";

export const NOTIFICATION_KINDS = [
  affiliateSignup,
  affiliateApproved,
  affiliateDenied,
  affiliateInvite,
  affiliateCommission,
  affiliateCommissionApproved,
  affiliateCommissionReversed,
  affiliatePayoutSent,
  affiliatePayoutFailed,
  affiliateRecruit,
  merchantSignup,
  merchantSale,
  merchantPayoutFailed,
  merchantPayoutReconciled,
  merchantCodeLeak,
  advocateReferralReward,
  advocateShareLink,
  staffInvite,
  affiliatePayoutReminder,
  affiliateTaxFormReminder,
  affiliateCoupon,
  affiliateTierChanged,
  affiliateReset,
  merchantDigest,
  affiliateBonusApproved,
  merchantClaimFiled,
  affiliateClaimDecided,
] as const;

export type NotificationKey = (typeof NOTIFICATION_KINDS)[number]["key"];

export interface NotificationDef {
  key: NotificationKey;
  audience: Audience;
  transactional: boolean;
  variables: Record<string, string>;
}

const byKey = new Map<string, NotificationKind<NotificationKey>>(NOTIFICATION_KINDS.map((kind) => [kind.key, kind]));

export const NOTIFICATIONS: readonly NotificationDef[] = NOTIFICATION_KINDS.map(
  ({ key, audience, transactional, variables }) => ({
    key,
    audience,
    transactional,
    variables,
  }),
);

export function isNotificationKey(value: string): value is NotificationKey {
  return byKey.has(value);
}

export function notificationDef(key: NotificationKey): NotificationDef {
  const { audience, transactional, variables } = byKey.get(key)!;
  return { key, audience, transactional, variables };
}

/**
 * Where a notification's default subject and body are: affiliate e-mails in
 * Account.Common `notify.{name}`, merchant and staff e-mails in Mails
 * `notify.{name}`; a refer-a-friend advocate's (a shopper's) e-mail sits with
 * the other texts a shopper reads, Account.Common `referFriend.email` (the
 * reward) and `referFriend.linkEmail` (the share link).
 */
export function defaultTexts(key: NotificationKey): { namespace: string; path: string } {
  const { audience } = notificationDef(key);
  if (audience === "advocate")
    return {
      namespace: "Account.Common",
      path: key === "advocate.share_link" ? "referFriend.linkEmail" : "referFriend.email",
    };
  return { namespace: audience === "affiliate" ? "Account.Common" : "Mails", path: `notify.${textName(key)}` };
}

/** "affiliate.approved" → "approved": the name of its texts in the translation files. */
export function textName(key: NotificationKey): string {
  return key.slice(key.indexOf(".") + 1);
}

/** Dotted names → nested objects, as Liquid reads them ({{ shop.name }}). */
export function nestValues(flat: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const parts = name.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  }
  return out;
}
