// Pure attribution: who gets credit for an order, and why (a message key and
// its values, attribution-reason.ts). Priority: affiliate coupon (typed, or
// applied by the affiliate's own link), then referral link (cart attribute), then the
// Web Pixel's report, then a lifetime customer link. First or last click is a
// shop setting. Self-referrals are refused.

import {
  ATTRIBUTION_REASON_KEYS as KEYS,
  type AttributionReason,
  type ReasonNote,
  type ReasonSignal,
} from "./attribution-reason";

// "subscription": a renewal order credited through its contract's first order (ADR 047).
export type AttributionSource = "coupon" | "link" | "pixel" | "lifetime" | "subscription" | "none";

export interface AffiliateFacts {
  id: string;
  name: string;
  code: string;
  email: string;
  customerGid: string | null;
  status: string;
  cookieDays: number;
}

export interface LinkSignal {
  affiliate: AffiliateFacts;
  clickId: string | null;
  // When the click happened (a bare referral code without a recorded click
  // counts as happening at order time).
  at: Date;
}

export interface AttributionInput {
  placedAt: Date;
  buyerEmail: string | null;
  buyerCustomerGid: string | null;
  attributionModel: "first_click" | "last_click";
  coupon: { code: string; affiliate: AffiliateFacts } | null;
  /**
   * The shop's links apply the affiliate's discount (Shop.autoApplyDiscount):
   * a coupon that came with its affiliate's own link click was applied by
   * the link, not typed.
   */
  autoApplyLinks?: boolean;
  links: LinkSignal[];
  pixel: LinkSignal | null;
  lifetime: AffiliateFacts | null;
}

export interface AttributionDecision {
  affiliateId: string | null;
  source: AttributionSource;
  clickId: string | null;
  reason: AttributionReason;
}

const DAY = 86_400_000;

function who(a: AffiliateFacts) {
  return `${a.name} (${a.code})`;
}

function withinWindow(link: LinkSignal, placedAt: Date) {
  const age = placedAt.getTime() - link.at.getTime();
  return age <= link.affiliate.cookieDays * DAY;
}

function ageInDays(link: LinkSignal, placedAt: Date) {
  return Math.floor(Math.max(0, placedAt.getTime() - link.at.getTime()) / DAY);
}

export function attributeOrder(input: AttributionInput): AttributionDecision {
  const notes: ReasonNote[] = [];

  // Checks one candidate; returns a refusal note, or null when it may be credited.
  const refusal = (a: AffiliateFacts, signal: ReasonSignal, code?: string): ReasonNote | null => {
    const via = { signal, who: who(a), ...(code === undefined ? {} : { code }) };
    if (a.status !== "approved") return { k: "notApproved", ...via, status: a.status };
    if (input.buyerEmail && a.email.toLowerCase() === input.buyerEmail.toLowerCase())
      return { k: "selfEmail", ...via, email: input.buyerEmail };
    if (input.buyerCustomerGid && a.customerGid && a.customerGid === input.buyerCustomerGid)
      return { k: "selfCustomer", ...via };
    return null;
  };

  if (input.coupon) {
    const { affiliate, code } = input.coupon;
    const no = refusal(affiliate, "coupon", code);
    if (!no) {
      // The link that applied the code is the click credited, so its sub-id
      // and tags go with the sale.
      const viaLink = input.autoApplyLinks
        ? input.links.find((l) => l.clickId && l.affiliate.id === affiliate.id)
        : undefined;
      return {
        affiliateId: affiliate.id,
        source: "coupon",
        clickId: viaLink?.clickId ?? null,
        reason: { key: viaLink ? KEYS.couponAutoApplied : KEYS.coupon, values: { who: who(affiliate), code } },
      };
    }
    notes.push(no);
  }

  const inWindow = input.links.filter((l) => {
    if (withinWindow(l, input.placedAt)) return true;
    notes.push({
      k: "clickOutside",
      who: who(l.affiliate),
      days: ageInDays(l, input.placedAt),
      cookieDays: l.affiliate.cookieDays,
    });
    return false;
  });
  const ordered = [...inWindow].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (input.attributionModel === "last_click") ordered.reverse();
  for (const link of ordered) {
    const no = refusal(link.affiliate, "link");
    if (!no) {
      const model =
        inWindow.length > 1
          ? {
              clicks: inWindow.length,
              model: input.attributionModel === "last_click" ? ("last" as const) : ("first" as const),
            }
          : {};
      return {
        affiliateId: link.affiliate.id,
        source: "link",
        clickId: link.clickId,
        reason: link.clickId
          ? {
              key: KEYS.linkClick,
              values: {
                who: who(link.affiliate),
                days: ageInDays(link, input.placedAt),
                cookieDays: link.affiliate.cookieDays,
                ...model,
              },
            }
          : { key: KEYS.linkCode, values: { who: who(link.affiliate), ...model } },
      };
    }
    notes.push(no);
  }

  if (input.pixel) {
    const p = input.pixel;
    const no = withinWindow(p, input.placedAt)
      ? refusal(p.affiliate, "pixel")
      : ({ k: "pixelOutside", who: who(p.affiliate) } as const);
    if (!no) {
      return {
        affiliateId: p.affiliate.id,
        source: "pixel",
        clickId: p.clickId,
        reason: { key: p.clickId ? KEYS.pixelClick : KEYS.pixelCode, values: { who: who(p.affiliate) } },
      };
    }
    notes.push(no);
  }

  if (input.lifetime) {
    const no = refusal(input.lifetime, "lifetime");
    if (!no) {
      return {
        affiliateId: input.lifetime.id,
        source: "lifetime",
        clickId: null,
        reason: { key: KEYS.lifetime, values: { who: who(input.lifetime) } },
      };
    }
    notes.push(no);
  }

  return {
    affiliateId: null,
    source: "none",
    clickId: null,
    reason: notes.length ? { key: KEYS.refused, values: { notes } } : { key: KEYS.nothing, values: {} },
  };
}
