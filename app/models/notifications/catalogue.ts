// Every e-mail notification the app sends: who gets it, whether it is
// transactional (always sent, no unsubscribe) and the variables its
// template may use, each with the sample value the Notifications screen's
// preview and "send a test" use. Pure data: the default wording is in the
// translation files (affiliate e-mails: Account.Common `notify.{name}`, in
// the affiliate's language; merchant and staff e-mails: Mails
// `notify.{name}`, in the shop's language; refer-a-friend advocates, who are
// shoppers: Account.Common `referFriend.email`, in the shop's language).

export type Audience = "affiliate" | "merchant" | "staff" | "advocate";

export interface NotificationDef {
  key: NotificationKey;
  audience: Audience;
  /** Transactional mail is always sent and has no unsubscribe link (password reset, invites). */
  transactional: boolean;
  /** Variable name → sample value (the preview's data). Dotted names are objects in Liquid. */
  variables: Record<string, string>;
}

const SHOP = { "shop.name": "Aurora Candles", "shop.url": "https://aurora-candles.example" };
const AFFILIATE = {
  "affiliate.first_name": "Jane",
  "affiliate.last_name": "Doe",
  "affiliate.email": "jane@example.com",
  "affiliate.referral_code": "JANEDOE",
  portal_url: "https://app.example/portal/aurora-candles",
};

const defs = {
  "affiliate.signup": { audience: "affiliate", transactional: false, variables: { ...SHOP, ...AFFILIATE } },
  "affiliate.approved": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, referral_link: "https://aurora-candles.example/?ref=JANEDOE" },
  },
  "affiliate.denied": { audience: "affiliate", transactional: false, variables: { ...SHOP, ...AFFILIATE } },
  "affiliate.invite": {
    audience: "affiliate",
    transactional: true,
    variables: { ...SHOP, ...AFFILIATE, invite_url: "https://app.example/portal/aurora-candles/reset?token=sample" },
  },
  "affiliate.commission": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "commission.amount": "$12.50", "commission.order": "#1001" },
  },
  "affiliate.commission_approved": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "commission.amount": "$12.50", "commission.order": "#1001" },
  },
  "affiliate.commission_reversed": {
    audience: "affiliate",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "commission.order": "#1001",
      "commission.original": "$12.50",
      "commission.reduction": "-$5.00",
      "commission.remaining": "$7.50",
    },
  },
  "affiliate.payout_sent": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "payout.amount": "$120.00", "payout.method": "PayPal" },
  },
  "affiliate.payout_failed": {
    audience: "affiliate",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "payout.amount": "$120.00",
      "payout.method": "PayPal",
      "payout.reason": "The receiver's account is not confirmed.",
    },
  },
  "affiliate.recruit": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "recruit.name": "Sam Lee" },
  },
  "merchant.signup": {
    audience: "merchant",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, admin_url: "https://app.example/admin/affiliates/sample" },
  },
  "merchant.sale": {
    audience: "merchant",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "sale.order": "#1001",
      "sale.amount": "$85.00",
      admin_url: "https://app.example/admin/sales",
    },
  },
  "merchant.payout_failed": {
    audience: "merchant",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "payout.amount": "$120.00",
      "payout.method": "PayPal",
      "payout.reason": "The receiver's account is not confirmed.",
      admin_url: "https://app.example/admin/payouts",
    },
  },
  // PayPal paid a payout the app had counted failed or cancelled (reconcile-payout.server.ts).
  "merchant.payout_reconciled": {
    audience: "merchant",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "payout.amount": "$120.00",
      "payout.method": "PayPal",
      "payout.overpaid": "$120.00",
      admin_url: "https://app.example/admin/payouts/p_1",
    },
  },
  // Refer-a-friend: the advocate's reward after a friend's order held (referrals/issue-referral-reward.server.ts).
  "advocate.referral_reward": {
    audience: "advocate",
    transactional: false,
    variables: {
      ...SHOP,
      "advocate.first_name": "Jane",
      "advocate.email": "jane@example.com",
      "reward.value": "$10.00",
      "reward.code": "REF-7K3M9QXW2HRT",
    },
  },
  // Refer-a-friend: an advocate's share link, sent to the address typed into
  // the widget when the visitor is not the signed-in customer it belongs to
  // (referrals/storefront-proxy.server.ts). Not transactional: whoever typed
  // the address, its owner can unsubscribe.
  "advocate.share_link": {
    audience: "advocate",
    transactional: false,
    variables: {
      ...SHOP,
      "advocate.first_name": "Jane",
      "advocate.email": "jane@example.com",
      share_url: "https://aurora-candles.example/?invite=k7m3q9xw2h",
    },
  },
  "staff.invite": {
    audience: "staff",
    transactional: true,
    variables: {
      ...SHOP,
      "staff.name": "Alex Kim",
      invite_url: "https://app.example/staff/get-password?token=sample",
    },
  },
  // notify-gaps: the reminder, coupon, tier, password-reset and digest e-mails (one block, easy to merge).
  "affiliate.payout_reminder": {
    audience: "affiliate",
    transactional: false,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      "balance.amount": "$42.00",
      settings_url: "https://app.example/account/payouts",
    },
  },
  "affiliate.coupon": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "coupon.code": "AFF-JANEDOE" },
  },
  "affiliate.tier_changed": {
    audience: "affiliate",
    transactional: false,
    variables: { ...SHOP, ...AFFILIATE, "tier.name": "Gold partners", "tier.previous": "Silver partners" },
  },
  "affiliate.reset": {
    audience: "affiliate",
    transactional: true,
    variables: {
      ...SHOP,
      ...AFFILIATE,
      reset_url: "https://app.example/portal/aurora-candles/reset?token=sample",
      link_expires: "60 minutes",
    },
  },
  "merchant.digest": {
    audience: "merchant",
    transactional: false,
    variables: {
      ...SHOP,
      "digest.period": "Nov 16 – Nov 22, 2026",
      "digest.clicks": "1,204",
      "digest.sales": "37",
      "digest.revenue": "$2,960.00",
      "digest.commission": "$296.00",
      "digest.pending": "4",
      admin_url: "https://app.example/admin",
    },
  },
} as const satisfies Record<string, Omit<NotificationDef, "key">>;

export type NotificationKey = keyof typeof defs;

export const NOTIFICATIONS: readonly NotificationDef[] = Object.entries(defs).map(([key, def]) => ({
  key: key as NotificationKey,
  ...def,
}));

export function isNotificationKey(value: string): value is NotificationKey {
  return Object.hasOwn(defs, value);
}

export function notificationDef(key: NotificationKey): NotificationDef {
  return { key, ...defs[key] };
}

/**
 * Where a notification's default subject and body are: affiliate e-mails in
 * Account.Common `notify.{name}`, merchant and staff e-mails in Mails
 * `notify.{name}`; a refer-a-friend advocate's (a shopper's) e-mail sits with
 * the other texts a shopper reads, Account.Common `referFriend.email` (the
 * reward) and `referFriend.linkEmail` (the share link).
 */
export function defaultTexts(key: NotificationKey): { namespace: string; path: string } {
  const { audience } = defs[key];
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
