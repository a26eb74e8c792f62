import { AppProvider, Button, Card } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

// Polaris renders on the server as a desktop browser's first layout effect
// will see it (the patch in app/patches, docs/decisions/069): no match at all
// made every Card's corners, Button's label weight and the Navigation's logo
// change while the admin hydrated, each a restyle of the page.
describe("Polaris's breakpoints on the server", () => {
  it("match a desktop viewport: a Card has rounded corners and a Button a medium-weight label", () => {
    const html = renderToString(h(AppProvider, { i18n: en }, h(Card, null, h(Button, null, "Pay"))));
    expect(html).toContain("--pc-shadow-bevel-border-radius-xs:var(--p-border-radius-300)");
    expect(html).toMatch(/class="[^"]*Polaris-Text--medium[^"]*">Pay</);
  });
});
