import type { Db } from "../../db/client.server";
import { msg } from "../../i18n/messages";
import { withShopSetting } from "../settings/shop-settings";
import { emailKey } from "./email-key";
import { DEMO_ADVOCATES, demoInviteToken } from "./demo-advocates";
import { DEFAULT_REFERRAL_PROGRAM, type ReferralProgram } from "./program-settings";

// The demo shop's refer-a-friend program: switched on, and a few advocates
// with referrals in every status, so the Referrals screens have something to
// show. Rows are written as the order job would have left them (reasons and
// checks as its keys, Referrals:reason.* and Referrals:checks.*); nothing is
// created in Shopify here, so the codes are marked as demo codes (the demo's
// store simulator holds them as discount codes: demo-advocates.ts).

export const DEMO_REFERRAL_PROGRAM: ReferralProgram = {
  ...DEFAULT_REFERRAL_PROGRAM,
  enabled: true,
  whoCanRefer: "anyone",
  codeMode: "shared",
  friendReward: { type: "percentage", value: 1500, minimumOrder: 3000, firstOrderOnly: true, expiryDays: 30 },
  advocateReward: { kind: "discount_code", type: "fixed_amount", value: 1000 },
  holdDays: 14,
  widget: { ...DEFAULT_REFERRAL_PROGRAM.widget, color: "#2e6b4f", textColor: "#ffffff" },
};

type Check = {
  rule: string;
  outcome: "pass" | "flag" | "block";
  detail: string;
  values?: Record<string, string | number>;
};

// The burst check's text names the program's limits, as the live check stores them.
const pass = (rule: string): Check => ({
  rule,
  outcome: "pass",
  detail: `checks.${rule}.pass`,
  ...(rule === "burst"
    ? {
        values: {
          threshold: DEMO_REFERRAL_PROGRAM.fraud.burstThreshold,
          minutes: DEMO_REFERRAL_PROGRAM.fraud.burstMinutes,
        },
      }
    : {}),
});
const passes = (...skip: string[]): Check[] =>
  ["self_referral", "existing_customer", "burst", "similar_email", "coupon_site", "program_rules"]
    .filter((r) => !skip.includes(r))
    .map(pass);

const ADVOCATES = DEMO_ADVOCATES;

export async function seedDemoReferrals(db: Db, shop: { id: string; settings: string }, now: Date) {
  const DAY = 86_400_000;
  const at = (days: number) => new Date(now.getTime() - days * DAY);
  await db.shop.update({
    where: { id: shop.id },
    data: { settings: withShopSetting(shop.settings, "referrals", DEMO_REFERRAL_PROGRAM) },
  });
  const advocates = [];
  for (const [i, a] of ADVOCATES.entries()) {
    advocates.push(
      await db.referralAdvocate.create({
        data: {
          shopId: shop.id,
          email: a.email,
          emailKey: emailKey(a.email),
          firstName: a.firstName,
          token: demoInviteToken(i),
          friendCode: a.code,
          source: a.source,
          createdAt: at(60 - i * 10),
        },
      }),
    );
  }
  const [olivia, marco, yuki] = advocates as [(typeof advocates)[0], (typeof advocates)[0], (typeof advocates)[0]];
  const reward = DEMO_REFERRAL_PROGRAM.advocateReward;
  const rows = [
    {
      advocate: olivia,
      n: 1,
      friend: "sam.lee@example.net",
      days: 40,
      total: 8900,
      status: "rewarded",
      source: "code",
      checks: passes(),
      rewardCode: "THANKS-OLIVIA-1",
    },
    {
      advocate: olivia,
      n: 2,
      friend: "noah.king@example.org",
      days: 25,
      total: 12450,
      status: "rewarded",
      source: "link",
      checks: passes(),
      rewardCode: "THANKS-OLIVIA-2",
    },
    {
      advocate: olivia,
      n: 3,
      friend: "ava.brown@example.com",
      days: 5,
      total: 5600,
      status: "pending",
      source: "code",
      checks: passes(),
    },
    {
      advocate: marco,
      n: 4,
      friend: "lena.vogel@example.de",
      days: 3,
      total: 7400,
      status: "pending",
      source: "link",
      checks: passes(),
    },
    {
      advocate: marco,
      n: 5,
      friend: "marco.rossi+2@example.com",
      days: 9,
      total: 6100,
      status: "blocked",
      source: "code",
      blockedRule: "self_referral",
      checks: [
        { rule: "self_referral", outcome: "block", detail: "checks.self_referral.same_email" },
        ...passes("self_referral"),
      ] as Check[],
    },
    {
      advocate: yuki,
      n: 6,
      friend: "old.customer@example.com",
      days: 12,
      total: 9800,
      status: "blocked",
      source: "code",
      blockedRule: "existing_customer",
      checks: [
        pass("self_referral"),
        {
          rule: "existing_customer",
          outcome: "block",
          detail: "checks.existing_customer.orders_count",
          values: { count: 3 },
        },
        ...passes("self_referral", "existing_customer"),
      ] as Check[],
    },
    {
      advocate: yuki,
      n: 7,
      friend: "mia.jones@example.net",
      days: 20,
      total: 4300,
      status: "cancelled",
      source: "link",
      checks: passes(),
    },
  ];
  for (const r of rows) {
    const placedAt = at(r.days);
    const holdUntil = new Date(placedAt.getTime() + DEMO_REFERRAL_PROGRAM.holdDays * DAY);
    const byCode = r.source === "code";
    await db.referral.create({
      data: {
        shopId: shop.id,
        advocateId: r.advocate.id,
        orderGid: `gid://shopify/Order/${990_000 + r.n}`,
        orderName: `#${1900 + r.n}`,
        friendEmail: r.friend,
        source: r.source,
        reason: byCode
          ? msg("Referrals:reason.shared_code", { code: r.advocate.friendCode!, advocate: r.advocate.email })
          : msg("Referrals:reason.link", { advocate: r.advocate.email }),
        friendCode: byCode ? r.advocate.friendCode : null,
        currency: "USD",
        orderTotal: r.total,
        status: r.status,
        checks: JSON.stringify(r.checks),
        blockedRule: r.blockedRule ?? null,
        holdUntil,
        rewardKind: reward.kind,
        rewardValue: reward.value,
        rewardCurrency: "USD",
        rewardCode: r.rewardCode ?? null,
        // A rewarded referral names the discount its code is (the money checker holds the demo to it).
        rewardGid: r.rewardCode ? `gid://shopify/DiscountCodeNode/${990_000 + r.n}` : null,
        rewardedAt: r.status === "rewarded" ? holdUntil : null,
        cancelledAt: r.status === "cancelled" ? at(r.days - 2) : null,
        placedAt,
        createdAt: placedAt,
      },
    });
  }
}
