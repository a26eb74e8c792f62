import { describe, expect, it } from "vitest";
import type { CampaignOut } from "./campaign-schemas";
import { englishMessage } from "../../i18n/messages.server";
import {
  campaignToForm,
  emptyCampaignForm,
  parseCampaignForm as parseKeyed,
  type CampaignFormValues,
} from "./campaign-form";

// Field messages are translation keys; these tests read their English.
const parseCampaignForm = (...args: Parameters<typeof parseKeyed>) => {
  const result = parseKeyed(...args);
  if (result.ok) return result;
  const fields = Object.fromEntries(Object.entries(result.fields).map(([path, m]) => [path, englishMessage(m)]));
  return { ok: false as const, fields };
};

const base = (over: Partial<CampaignFormValues> = {}): CampaignFormValues => ({
  ...emptyCampaignForm(false),
  name: "Summer",
  ...over,
});

describe("parseCampaignForm", () => {
  it("turns percents and amounts into basis points and minor units", () => {
    const result = parseCampaignForm(
      base({
        commission_value: "12.5",
        new_customer_enabled: true,
        new_customer_value: "20",
        auto_approve_orders: true,
        approval_hold_days: "14",
        levels: [
          { key: "a", basis: "percent_of_sale", rate: "5" },
          { key: "b", basis: "percent_of_commission", rate: "2.25" },
        ],
        rules: [
          {
            key: "r",
            target_type: "product",
            target: "123",
            kind: "rate",
            commission_type: "flat_item",
            value: "3.50",
          },
          {
            key: "x",
            target_type: "collection",
            target: "gid://shopify/Collection/9",
            kind: "exclude",
            commission_type: "percent",
            value: "",
          },
        ],
        coupon: {
          enabled: true,
          discount_type: "fixed_amount",
          discount_value: "5",
          prefix: "sum-",
          once_per_customer: false,
        },
      }),
      2,
    );
    expect(result).toEqual({
      ok: true,
      data: expect.objectContaining({
        commission_value: 1250,
        new_customer_value: 2000,
        approval_hold_days: 14,
        levels: [
          { level: 2, basis: "percent_of_sale", rate: 500 },
          { level: 3, basis: "percent_of_commission", rate: 225 },
        ],
        rules: [
          {
            target_type: "product",
            target_gid: "gid://shopify/Product/123",
            target_title: null,
            target_image_url: null,
            kind: "rate",
            commission_type: "flat_item",
            value: 350,
          },
          {
            target_type: "collection",
            target_gid: "gid://shopify/Collection/9",
            target_title: null,
            target_image_url: null,
            kind: "exclude",
            commission_type: "percent",
            value: 0,
          },
        ],
        coupon: {
          enabled: true,
          discount_type: "fixed_amount",
          discount_value: 500,
          prefix: "SUM-",
          once_per_customer: false,
        },
      }),
    });
  });

  it("uses the currency's decimals for flat amounts (yen have none)", () => {
    const yen = parseCampaignForm(base({ commission_type: "flat_order", commission_value: "500" }), 0);
    expect(yen.ok && yen.data.commission_value).toBe(500);
    const bad = parseCampaignForm(base({ commission_type: "flat_order", commission_value: "5.5" }), 0);
    expect(bad).toEqual({ ok: false, fields: { commission_value: "Use a whole number" } });
  });

  it.each([
    [{ name: "  " }, "name", "Enter a name"],
    [{ commission_value: "100.5" }, "commission_value", "Use at most 100 %"],
    [{ commission_value: "10.123" }, "commission_value", "Use at most 2 decimals"],
    [{ commission_value: "ten" }, "commission_value", "Enter a number such as 12.5"],
    [{ new_customer_enabled: true, new_customer_value: "" }, "new_customer_value", "Enter a number"],
    [{ cookie_days: "0" }, "cookie_days", "Use at least 1"],
    [{ cookie_days: "400" }, "cookie_days", "Use at most 365"],
    [{ auto_approve_orders: true, approval_hold_days: "1.5" }, "approval_hold_days", "Use a whole number"],
    [{ levels: [{ key: "a", basis: "percent_of_sale" as const, rate: "101" }] }, "levels.0.rate", "Use at most 100 %"],
    [
      {
        rules: [
          {
            key: "r",
            target_type: "product" as const,
            target: "abc",
            kind: "rate" as const,
            commission_type: "percent" as const,
            value: "5",
          },
        ],
      },
      "rules.0.target_gid",
      "Use a gid://shopify/Product/<number> id",
    ],
    [
      {
        coupon: {
          enabled: true,
          discount_type: "percentage" as const,
          discount_value: "0",
          prefix: "",
          once_per_customer: true,
        },
      },
      "coupon.discount_value",
      "Enter a discount above 0",
    ],
    [
      {
        coupon: {
          enabled: false,
          discount_type: "percentage" as const,
          discount_value: "10",
          prefix: "no spaces",
          once_per_customer: true,
        },
      },
      "coupon.prefix",
      "Use letters, digits, - or _",
    ],
  ])("refuses %j with a message on %s", (over, path, message) => {
    const result = parseCampaignForm(base(over as Partial<CampaignFormValues>), 2);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.fields[path]).toBe(message);
  });

  it("refuses a tenth level and a duplicate rule target", () => {
    const levels = Array.from({ length: 10 }, (_, i) => ({
      key: `${i}`,
      basis: "percent_of_sale" as const,
      rate: "1",
    }));
    expect(parseCampaignForm(base({ levels }), 2)).toEqual({
      ok: false,
      fields: { levels: "At most 9 levels (2..10)" },
    });
    const rule = {
      key: "r",
      target_type: "product" as const,
      target: "1",
      kind: "rate" as const,
      commission_type: "percent" as const,
      value: "5",
    };
    const dup = parseCampaignForm(base({ rules: [rule, { ...rule, target: "gid://shopify/Product/1" }] }), 2);
    expect(!dup.ok && dup.fields["rules.1.target_gid"]).toBe("This target has a rule already");
  });
});

describe("campaignToForm", () => {
  it("gives back what parseCampaignForm stores", () => {
    const parsed = parseCampaignForm(
      base({
        commission_value: "7.25",
        levels: [{ key: "a", basis: "percent_of_sale", rate: "3" }],
        coupon: {
          enabled: true,
          discount_type: "percentage",
          discount_value: "15",
          prefix: "VIP",
          once_per_customer: true,
        },
      }),
      2,
    );
    if (!parsed.ok) throw new Error("expected a valid form");
    const stored: CampaignOut = { ...parsed.data, id: "c1", created_at: "", updated_at: "" };
    const again = parseCampaignForm(campaignToForm(stored, 2), 2);
    expect(again).toEqual(parsed);
  });
});
