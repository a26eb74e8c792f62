import { describe, expect, it } from "vitest";
import {
  addressKey,
  burst,
  couponSite,
  editDistance,
  existingCustomer,
  plainMoney,
  programRules,
  runChecks,
  selfReferral,
  similarEmail,
  type CheckFacts,
  type ReferralCheck,
} from "./checks";
import { DEFAULT_REFERRAL_PROGRAM } from "./program-settings";

const HOME = addressKey({ address1: "12 Elm St.", zip: "10115", country_code: "DE" });

function facts(over: {
  friend?: Partial<CheckFacts["friend"]>;
  advocate?: Partial<CheckFacts["advocate"]>;
  order?: Partial<CheckFacts["order"]>;
  burst?: Partial<CheckFacts["burst"]>;
  reach?: Partial<CheckFacts["reach"]>;
  fraud?: Partial<CheckFacts["program"]["fraud"]>;
  friendReward?: Partial<CheckFacts["program"]["friendReward"]>;
}): CheckFacts {
  return {
    program: {
      friendReward: { ...DEFAULT_REFERRAL_PROGRAM.friendReward, firstOrderOnly: false, ...over.friendReward },
      fraud: { ...DEFAULT_REFERRAL_PROGRAM.fraud, ...over.fraud },
    },
    friend: {
      email: "friend@example.com",
      emailKey: "friend@example.com",
      customerGid: "gid://shopify/Customer/2",
      address: addressKey({ address1: "1 Oak Road", zip: "75001", country_code: "FR" }),
      ordersCount: 1,
      orderedBefore: false,
      ...over.friend,
    },
    advocate: {
      email: "Anna.Smith@gmail.com",
      emailKey: "annasmith@gmail.com",
      customerGid: "gid://shopify/Customer/1",
      addresses: [HOME!],
      ...over.advocate,
    },
    order: { subtotal: 5000, currency: "USD", source: "code", ...over.order },
    burst: { sameIp: 1, sameDevice: 1, ...over.burst },
    reach: { referrals30d: 1, visits30d: 3, ...over.reach },
  };
}

type Row = [string, (f: CheckFacts) => ReferralCheck, CheckFacts, Omit<ReferralCheck, "rule">];

// Every rule's every outcome, with the reason it stores (the i18n key and its values).
const ROWS: Row[] = [
  [
    "self: same e-mail key",
    selfReferral,
    facts({ friend: { email: "anna.smith@gmail.com", emailKey: "annasmith@gmail.com" } }),
    { outcome: "block", detail: "checks.self_referral.same_email" },
  ],
  [
    "self: same customer",
    selfReferral,
    facts({ friend: { customerGid: "gid://shopify/Customer/1" } }),
    { outcome: "block", detail: "checks.self_referral.same_customer" },
  ],
  [
    "self: same shipping address",
    selfReferral,
    facts({ friend: { address: addressKey({ address1: "12 elm st", zip: "10115", country_code: "de" }) } }),
    { outcome: "block", detail: "checks.self_referral.same_address" },
  ],
  ["self: another person", selfReferral, facts({}), { outcome: "pass", detail: "checks.self_referral.pass" }],
  [
    "existing: orders_count above 1, blocking",
    existingCustomer,
    facts({ friend: { ordersCount: 4 } }),
    { outcome: "block", detail: "checks.existing_customer.orders_count", values: { count: 3 } },
  ],
  [
    "existing: orders_count above 1, flag only",
    existingCustomer,
    facts({ friend: { ordersCount: 2 }, fraud: { blockExistingCustomers: false } }),
    { outcome: "flag", detail: "checks.existing_customer.orders_count", values: { count: 1 } },
  ],
  [
    "existing: an earlier order on record",
    existingCustomer,
    facts({ friend: { ordersCount: null, orderedBefore: true } }),
    { outcome: "block", detail: "checks.existing_customer.earlier_order" },
  ],
  [
    "existing: a first order",
    existingCustomer,
    facts({}),
    { outcome: "pass", detail: "checks.existing_customer.pass" },
  ],
  [
    "burst: one IP above the threshold",
    burst,
    facts({ burst: { sameIp: 6 } }),
    { outcome: "block", detail: "checks.burst.same_ip", values: { count: 6, minutes: 60, threshold: 5 } },
  ],
  [
    "burst: one device above the threshold",
    burst,
    facts({ burst: { sameDevice: 3 }, fraud: { burstThreshold: 2, burstMinutes: 10 } }),
    { outcome: "block", detail: "checks.burst.same_device", values: { count: 3, minutes: 10, threshold: 2 } },
  ],
  [
    "burst: at the threshold",
    burst,
    facts({ burst: { sameIp: 5, sameDevice: 5 } }),
    { outcome: "pass", detail: "checks.burst.pass", values: { threshold: 5, minutes: 60 } },
  ],
  [
    "similar: plus-tag alias",
    similarEmail,
    facts({ friend: { email: "annasmith+x@gmail.com", emailKey: "annasmith@gmail.com" } }),
    { outcome: "block", detail: "checks.similar_email.alias", values: { email: "annasmith+x@gmail.com" } },
  ],
  [
    "similar: Gmail dots alias",
    similarEmail,
    facts({ friend: { email: "a.nnasmith@googlemail.com", emailKey: "annasmith@gmail.com" } }),
    { outcome: "block", detail: "checks.similar_email.alias", values: { email: "a.nnasmith@googlemail.com" } },
  ],
  [
    "similar: one letter apart",
    similarEmail,
    facts({ friend: { email: "annasmyth@gmail.com", emailKey: "annasmyth@gmail.com" } }),
    { outcome: "flag", detail: "checks.similar_email.one_letter", values: { email: "annasmyth@gmail.com" } },
  ],
  [
    "similar: one letter apart on another domain",
    similarEmail,
    facts({ friend: { email: "annasmith@yahoo.com", emailKey: "annasmith@yahoo.com" } }),
    { outcome: "pass", detail: "checks.similar_email.pass" },
  ],
  [
    "similar: no e-mail",
    similarEmail,
    facts({ friend: { email: null, emailKey: null } }),
    { outcome: "pass", detail: "checks.similar_email.pass" },
  ],
  [
    "coupon site: above the program's threshold",
    couponSite,
    facts({ reach: { referrals30d: 51, visits30d: 400 } }),
    { outcome: "flag", detail: "checks.coupon_site.many_referrals", values: { count: 51, threshold: 50 } },
  ],
  [
    "coupon site: code uses far beyond the link's visits",
    couponSite,
    facts({ reach: { referrals30d: 12, visits30d: 2 } }),
    { outcome: "flag", detail: "checks.coupon_site.beyond_reach", values: { count: 12, visits: 2 } },
  ],
  [
    "coupon site: link referrals never beyond reach",
    couponSite,
    facts({ order: { source: "link" }, reach: { referrals30d: 12, visits30d: 2 } }),
    { outcome: "pass", detail: "checks.coupon_site.pass" },
  ],
  [
    "coupon site: a few friends",
    couponSite,
    facts({ reach: { referrals30d: 9, visits30d: 0 } }),
    { outcome: "pass", detail: "checks.coupon_site.pass" },
  ],
  [
    "program: below the minimum order",
    (f) => programRules(f, plainMoney),
    facts({ friendReward: { minimumOrder: 6000 } }),
    {
      outcome: "block",
      detail: "checks.program_rules.minimum_order",
      values: { subtotal: "50.00 USD", minimum: "60.00 USD" },
    },
  ],
  [
    "program: first order only, ordered before",
    (f) => programRules(f, plainMoney),
    facts({ friendReward: { firstOrderOnly: true }, friend: { orderedBefore: true } }),
    { outcome: "block", detail: "checks.program_rules.first_order_only" },
  ],
  [
    "program: met",
    (f) => programRules(f, plainMoney),
    facts({ friendReward: { minimumOrder: 5000, firstOrderOnly: true } }),
    { outcome: "pass", detail: "checks.program_rules.pass" },
  ],
];

describe("referral checks", () => {
  it.each(ROWS)("%s", (_name, rule, input, expected) => {
    const result = rule(input);
    expect({ outcome: result.outcome, detail: result.detail, values: result.values }).toEqual({
      values: undefined,
      ...expected,
    });
  });

  it("runs every rule and names the first that blocked", () => {
    const clean = runChecks(facts({}));
    expect(clean.checks.map((c) => c.rule)).toEqual([
      "self_referral",
      "similar_email",
      "existing_customer",
      "burst",
      "coupon_site",
      "program_rules",
    ]);
    expect(clean.blockedRule).toBeNull();
    const blocked = runChecks(facts({ friend: { ordersCount: 3 }, burst: { sameIp: 9 } }));
    expect(blocked.blockedRule).toBe("existing_customer");
    expect(runChecks(facts({ reach: { referrals30d: 60 } })).blockedRule).toBeNull();
  });

  it("measures edit distance", () => {
    expect(editDistance("anna", "anne")).toBe(1);
    expect(editDistance("anna", "annna")).toBe(1);
    expect(editDistance("anna", "bob", 1)).toBe(2);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("keys addresses by street, postcode and country", () => {
    expect(addressKey(null)).toBeNull();
    expect(addressKey({ address1: "", zip: "1" })).toBeNull();
    expect(addressKey({ address1: "Straße 5", zip: "10 115", country_code: "DE" })).toBe("straße5|10115|de");
    expect(plainMoney(1234, "JPY")).toBe("1234 JPY");
  });
});
