// Pure attribution: who gets credit for an order, and why, in plain words.
// Priority: affiliate coupon, then referral link (cart attribute), then the
// Web Pixel's report, then a lifetime customer link. First or last click is a
// shop setting. Self-referrals are refused.

export type AttributionSource = "coupon" | "link" | "pixel" | "lifetime" | "none";

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
  links: LinkSignal[];
  pixel: LinkSignal | null;
  lifetime: AffiliateFacts | null;
}

export interface AttributionDecision {
  affiliateId: string | null;
  source: AttributionSource;
  clickId: string | null;
  reason: string;
}

const DAY = 86_400_000;

function who(a: AffiliateFacts) {
  return `${a.name} (${a.code})`;
}

function isSelfReferral(a: AffiliateFacts, input: AttributionInput): string | null {
  if (input.buyerEmail && a.email.toLowerCase() === input.buyerEmail.toLowerCase())
    return `the buyer's e-mail ${input.buyerEmail} is the affiliate's own`;
  if (input.buyerCustomerGid && a.customerGid && a.customerGid === input.buyerCustomerGid)
    return "the buyer is the affiliate's own customer account";
  return null;
}

function withinWindow(link: LinkSignal, placedAt: Date) {
  const age = placedAt.getTime() - link.at.getTime();
  return age <= link.affiliate.cookieDays * DAY;
}

function ageText(link: LinkSignal, placedAt: Date) {
  const days = Math.floor(Math.max(0, placedAt.getTime() - link.at.getTime()) / DAY);
  return days === 0 ? "the same day" : `${days} day${days === 1 ? "" : "s"} before the order`;
}

export function attributeOrder(input: AttributionInput): AttributionDecision {
  const notes: string[] = [];

  // Checks one candidate; returns a refusal note, or null when it may be credited.
  const refusal = (a: AffiliateFacts, signal: string): string | null => {
    if (a.status !== "approved") return `${signal} points to ${who(a)}, who is ${a.status}, not approved.`;
    const self = isSelfReferral(a, input);
    if (self) return `Self-referral refused: ${signal} points to ${who(a)}, but ${self}.`;
    return null;
  };

  if (input.coupon) {
    const { affiliate, code } = input.coupon;
    const no = refusal(affiliate, `coupon ${code}`);
    if (!no) {
      return {
        affiliateId: affiliate.id,
        source: "coupon",
        clickId: null,
        reason: `Credited to ${who(affiliate)}: their coupon ${code} was used at checkout.`,
      };
    }
    notes.push(no);
  }

  const inWindow = input.links.filter((l) => {
    if (withinWindow(l, input.placedAt)) return true;
    notes.push(
      `A referral click for ${who(l.affiliate)} ${ageText(l, input.placedAt)} is outside the ${l.affiliate.cookieDays}-day cookie window.`,
    );
    return false;
  });
  const ordered = [...inWindow].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (input.attributionModel === "last_click") ordered.reverse();
  for (const link of ordered) {
    const no = refusal(link.affiliate, "the referral link");
    if (!no) {
      const model =
        inWindow.length > 1
          ? ` (${input.attributionModel === "last_click" ? "last" : "first"} of ${inWindow.length} clicks)`
          : "";
      return {
        affiliateId: link.affiliate.id,
        source: "link",
        clickId: link.clickId,
        reason: link.clickId
          ? `Credited to ${who(link.affiliate)}: referral link click ${ageText(link, input.placedAt)}${model}, within the ${link.affiliate.cookieDays}-day cookie window.`
          : `Credited to ${who(link.affiliate)}: their referral code was in the cart (no recorded click)${model}.`,
      };
    }
    notes.push(no);
  }

  if (input.pixel) {
    const p = input.pixel;
    const no = withinWindow(p, input.placedAt)
      ? refusal(p.affiliate, "the Web Pixel report")
      : `The Web Pixel reported a click for ${who(p.affiliate)} outside the cookie window.`;
    if (!no) {
      return {
        affiliateId: p.affiliate.id,
        source: "pixel",
        clickId: p.clickId,
        reason: `Credited to ${who(p.affiliate)}: the Web Pixel matched this checkout to their referral ${p.clickId ? "click" : "code"} (the cart carried no referral).`,
      };
    }
    notes.push(no);
  }

  if (input.lifetime) {
    const no = refusal(input.lifetime, "the lifetime customer link");
    if (!no) {
      return {
        affiliateId: input.lifetime.id,
        source: "lifetime",
        clickId: null,
        reason: `Credited to ${who(input.lifetime)}: this customer was referred by them before (lifetime customer link).`,
      };
    }
    notes.push(no);
  }

  const base = "Not credited: no affiliate coupon, referral link, pixel report or lifetime customer link applies.";
  return {
    affiliateId: null,
    source: "none",
    clickId: null,
    reason: notes.length ? `Not credited. ${notes.join(" ")}` : base,
  };
}
