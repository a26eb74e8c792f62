import { describe, expect, it } from "vitest";
import { calculateCommissions, type CampaignTerms } from "./calculate-commission";
import { english, german } from "../../../tests/support/explanations";
import { encodeExplanation, withCollectionsUnread } from "./commission-explanation";

const P = "gid://shopify/Product/1";
const terms = (over: Partial<CampaignTerms> = {}): CampaignTerms => ({
  commissionType: "percent",
  commissionValue: 1_000,
  newCustomerValue: 1_500,
  rules: [],
  levels: [{ level: 2, basis: "percent_of_sale", rate: 250 }],
  ...over,
});
const line = (quantity: number, amount: number, productGid: string | null = P) => ({
  id: `l${quantity}${amount}`,
  productGid,
  quantity,
  amount,
});

describe("commission explanations", () => {
  it.each([
    [
      "the new-customer rate",
      terms(),
      [line(1, 16_800)],
      true,
      "15% (new-customer rate) on $168.00",
      "15 % (Neukunden-Satz) auf 168,00 $",
    ],
    [
      "a flat amount per item, with the quantity",
      terms({
        rules: [{ targetType: "product", targetGid: P, kind: "rate", commissionType: "flat_item", value: 300 }],
      }),
      [line(2, 5_000), line(1, 2_500)],
      false,
      "$3.00 per item × 3 (product rule) on $75.00",
      "3,00 $ pro Artikel × 3 (Produktregel) auf 75,00 $",
    ],
    [
      "an excluded product beside the campaign rate",
      terms({ rules: [{ targetType: "product", targetGid: P, kind: "exclude", commissionType: "percent", value: 0 }] }),
      [line(1, 1_001), line(1, 13_999, "gid://shopify/Product/2")],
      false,
      "10% (campaign rate) on $139.99; $10.01 of excluded products left out",
      "10 % (Kampagnensatz) auf 139,99 $; 10,01 $ ausgeschlossener Produkte nicht berücksichtigt",
    ],
    [
      "a flat amount per order",
      terms({ commissionType: "flat_order", commissionValue: 700, newCustomerValue: null }),
      [line(1, 4_000)],
      false,
      "$7.00 per order on $40.00",
      "7,00 $ pro Bestellung auf 40,00 $",
    ],
  ])("%s", (_name, campaign, lines, isNewCustomer, inEnglish, inGerman) => {
    const outcome = calculateCommissions(campaign, { currency: "USD", lines, isNewCustomer, chain: ["a", null] });
    const stored = outcome.lines[0]!.explanation;
    expect(english(stored)).toBe(inEnglish);
    expect(german(stored)).toBe(inGerman);
  });

  it("writes upline levels and refunds in the reader's language", () => {
    const outcome = calculateCommissions(terms(), {
      currency: "EUR",
      lines: [line(1, 20_000)],
      isNewCustomer: false,
      chain: ["a", "b"],
    });
    expect(english(outcome.lines[1]!.explanation, "EUR")).toBe("Level 2: 2.5% of €200.00 sale");
    expect(german(outcome.lines[1]!.explanation, "EUR")).toBe("Stufe 2: 2,5 % von 200,00 € Umsatz");
    const refund = encodeExplanation({ kind: "refund", refunded: 5_000, before: 2_000, after: 1_500 });
    expect(english(refund, "EUR")).toBe(
      "Refund of €50.00: the commission on the kept part of the order is €15.00 (was €20.00)",
    );
  });

  it("adds the note on unread collections, and shows older English text as it is", () => {
    const outcome = calculateCommissions(terms(), {
      currency: "USD",
      lines: [line(1, 1_000)],
      isNewCustomer: false,
      chain: ["a"],
    });
    expect(english(withCollectionsUnread(outcome.lines[0]!.explanation))).toBe(
      "10% (campaign rate) on $10.00; collection rules not applied (the shop's product collections could not be read)",
    );
    const old = "15% (new-customer rate) on $168.00";
    expect(german(old)).toBe(old);
    expect(english("explain:{broken")).toBe("explain:{broken");
  });
});
