import { getDb } from "../../db.server";
import { formatDateIn, formatMoneyIn, formatNumberIn } from "../../i18n/format";
import { emailKey } from "./email-key";
import { maskEmailForAdvocate as maskEmail } from "./mask-email";
import { shareUrl } from "./share-link";
import { customerEmails, type ReferralProxyContext } from "./storefront-proxy.server";

// The customer's refer-a-friend page (issue 13, point 7), served through the
// app proxy at https://{shop}/apps/affiliate/referrals/account for a signed-in
// customer: their link and code, the friends who ordered through it (e-mails
// masked), and the rewards earned. Plain HTML with no script: it works in
// any theme and without JavaScript.

export interface AccountPageData {
  loggedIn: boolean;
  /** An e-mail the customer's orders carry: the page can make their link with it. */
  canJoin: boolean;
  advocate: { shareUrl: string; friendCode: string | null } | null;
  referrals: { friend: string; date: string; status: string; reward: string }[];
  rewarded: number;
}

/** What the page's data needs: the app proxy's context, or the customer account's (customer-account-referrals.server.ts). */
export type AccountPageContext = Pick<ReferralProxyContext, "shop" | "program" | "customerGid" | "language" | "t">;

/** The signed-in customer's advocate: linked by customer id, or one of their orders' e-mails. */
async function findAdvocate(ctx: AccountPageContext, emails: string[]) {
  const keys = emails.map(emailKey);
  return getDb().referralAdvocate.findFirst({
    where: {
      shopId: ctx.shop.id,
      disabledAt: null,
      OR: [{ customerGid: ctx.customerGid! }, ...(keys.length ? [{ emailKey: { in: keys } }] : [])],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true, token: true, friendCode: true },
  });
}

export async function accountPageData(ctx: AccountPageContext): Promise<AccountPageData> {
  if (!ctx.customerGid) return { loggedIn: false, canJoin: false, advocate: null, referrals: [], rewarded: 0 };
  const emails = await customerEmails(ctx.shop.id, ctx.customerGid);
  const advocate = await findAdvocate(ctx, emails);
  if (!advocate) return { loggedIn: true, canJoin: emails.length > 0, advocate: null, referrals: [], rewarded: 0 };
  const rows = await getDb().referral.findMany({
    where: { shopId: ctx.shop.id, advocateId: advocate.id },
    orderBy: { placedAt: "desc" },
    take: 100,
    select: {
      friendEmail: true,
      placedAt: true,
      status: true,
      rewardKind: true,
      rewardValue: true,
      rewardCurrency: true,
      rewardCode: true,
    },
  });
  const { t, language } = ctx;
  const percentReward =
    ctx.program.advocateReward.kind === "discount_code" && ctx.program.advocateReward.type === "percentage";
  const reward = (r: (typeof rows)[number]) => {
    if (r.status !== "rewarded") return "";
    const value =
      r.rewardKind === "discount_code" && percentReward
        ? formatNumberIn(language.tag, r.rewardValue / 10_000, { style: "percent", maximumFractionDigits: 2 })
        : formatMoneyIn(language.tag, r.rewardValue, r.rewardCurrency);
    return r.rewardCode ? `${value} (${r.rewardCode})` : value;
  };
  return {
    loggedIn: true,
    canJoin: false,
    advocate: {
      shareUrl: shareUrl(ctx.shop.url, advocate.token),
      friendCode: ctx.program.codeMode === "shared" ? advocate.friendCode : null,
    },
    referrals: rows.map((r) => ({
      friend: maskEmail(r.friendEmail),
      date: formatDateIn(language.tag, r.placedAt, ctx.shop.timezone),
      status: t(`Account.Common:referFriend.account.status.${r.status}`, { defaultValue: r.status }),
      reward: reward(r),
    })),
    rewarded: rows.filter((r) => r.status === "rewarded").length,
  };
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The page: `action` is where the "get my link" form posts (the proxied path of this page). */
export function renderAccountPage(ctx: ReferralProxyContext, data: AccountPageData, action: string): string {
  const t = (key: string) => escape(ctx.t(key));
  const color = escape(ctx.program.widget.color);
  const text = escape(ctx.program.widget.textColor);
  let body: string;
  if (!data.loggedIn) body = `<p>${t("Account.Common:referFriend.account.loginNeeded")}</p>`;
  else if (!data.advocate)
    body = `<p>${t("Account.Common:referFriend.account.noLink")}</p>${
      data.canJoin
        ? `<form method="post" action="${escape(action)}"><button type="submit" class="raf-button">${t("Account.Common:referFriend.widget.submit")}</button></form>`
        : ""
    }`;
  else {
    const rows = data.referrals
      .map(
        (r) =>
          `<tr><td>${escape(r.friend)}</td><td>${escape(r.date)}</td><td>${escape(r.status)}</td><td>${escape(r.reward)}</td></tr>`,
      )
      .join("");
    body = `<p>${t("Account.Common:referFriend.account.intro")}</p>
<p><label for="raf-link">${t("Account.Common:referFriend.widget.linkLabel")}</label><br><input id="raf-link" class="raf-link" readonly value="${escape(data.advocate.shareUrl)}"></p>
${data.advocate.friendCode ? `<p>${t("Account.Common:referFriend.widget.codeLabel")} <strong class="raf-code">${escape(data.advocate.friendCode)}</strong></p>` : ""}
<h2>${t("Account.Common:referFriend.account.friends")}</h2>
${
  data.referrals.length
    ? `<table><thead><tr><th scope="col">${t("Account.Common:referFriend.account.friend")}</th><th scope="col">${t("Account.Common:referFriend.account.date")}</th><th scope="col">${t("Account.Common:referFriend.account.status.label")}</th><th scope="col">${t("Account.Common:referFriend.account.reward")}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${t("Account.Common:referFriend.account.noFriends")}</p>`
}
<p class="raf-earned">${t("Account.Common:referFriend.account.rewardsEarned")} <strong>${data.rewarded}</strong></p>`;
  }
  return `<!DOCTYPE html>
<html lang="${escape(ctx.language.tag)}" dir="${ctx.language.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t("Account.Common:referFriend.widget.buttonText")}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#fafafa}
main{max-width:44rem;margin:0 auto;background:#fff;border:1px solid #e3e3e3;border-radius:12px;padding:1.5rem 2rem}
h1{margin-top:0;font-size:1.6rem}h2{font-size:1.15rem;margin-top:2rem}
.raf-link{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #bbb;border-radius:6px;font-size:1rem}
.raf-code{font-family:ui-monospace,monospace;font-size:1.1rem;letter-spacing:.05em}
.raf-button{background:${color};color:${text};border:0;border-radius:6px;padding:.7rem 1.2rem;font-size:1rem;cursor:pointer}
table{width:100%;border-collapse:collapse}th,td{text-align:start;padding:.5rem;border-bottom:1px solid #eee}
</style></head>
<body><main><h1>${t("Account.Common:referFriend.widget.buttonText")}</h1>
${body}
</main></body></html>`;
}
