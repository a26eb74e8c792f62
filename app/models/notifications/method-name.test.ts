import { describe, expect, it } from "vitest";
import { languageInfo } from "../../i18n/language-table";
import { methodName } from "./notification-values.server";

// Payout methods in mails are words of the recipient's language, not a fixed English table.
describe("methodName", () => {
  it.each([
    ["en", "manual", "merchant", "hand"],
    ["en", "csv", "merchant", "CSV file"],
    ["en", "store_credit", "merchant", "store credit"],
    ["de", "paypal", "merchant", "PayPal"],
    ["de", "manual", "merchant", "Hand"],
    ["de", "store_credit", "merchant", "Shop-Guthaben"],
    ["fr", "discount_code", "merchant", "code de réduction"],
    ["jp", "csv", "merchant", "CSVファイル"],
    ["de", "bank", "affiliate", "Banküberweisung"],
    ["sw", "paypal", "affiliate", "PayPal"],
    ["de", "something_new", "merchant", "something_new"],
  ] as const)("%s %s for a %s: %s", (code, method, audience, expected) => {
    expect(methodName(languageInfo(code)!, method, audience)).toBe(expected);
  });
});
