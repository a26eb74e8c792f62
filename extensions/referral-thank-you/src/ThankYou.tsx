/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import type { Api } from "@shopify/ui-extensions/purchase.thank-you.block.render";
import { APP_URL } from "./app-url";
import { ReferralBlock, type BlockHost } from "./ReferralBlock";

// purchase.thank-you.block.render: right after the purchase. The order id
// comes from the order confirmation; the buyer may be a guest.
export default async function extension() {
  const api = (globalThis as unknown as { shopify: Api }).shopify;
  const host: BlockHost = {
    appUrl: APP_URL,
    facts: () => ({
      orderId: api.orderConfirmation.value.order.id,
      email: api.buyerIdentity?.email.value,
      firstName: api.buyerIdentity?.customer.value?.firstName,
    }),
    sessionToken: () => api.sessionToken.get(),
    translate: (key, values) => api.i18n.translate(key, values),
    formatNumber: (n, options) => api.i18n.formatNumber(n, options),
    formatCurrency: (n, options) => api.i18n.formatCurrency(n, options),
  };
  render(<ReferralBlock host={host} />, document.body);
}
