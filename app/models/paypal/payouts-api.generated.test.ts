import { readFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";

// The committed types are what `npm run paypal:types` makes from PayPal's
// OpenAPI file today: a change of the file (or of the generator) shows here.
const SPEC = path.resolve(__dirname, "../../../tests/fixtures/paypal/payments_payouts_batch_v1.json");
const GENERATED = path.join(__dirname, "payouts-api.generated.ts");
const withoutHeader = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, "");

describe("payouts-api.generated.ts", () => {
  it("matches PayPal's OpenAPI file", async () => {
    const ast = await openapiTS(new URL(`file://${SPEC}`), { defaultNonNullable: false });
    const options = (await resolveConfig(GENERATED)) ?? {};
    const fresh = await format(astToString(ast), { ...options, filepath: GENERATED });
    expect(withoutHeader(fresh)).toBe(withoutHeader(readFileSync(GENERATED, "utf8")));
  }, 30_000);
});
