// How a gift card's code is shown and marked. Pure: the sender, the payout
// screens and the affiliate's page share it.

/** The payout's marker in the card's note, which tells the sender's look-up that a card is this payout's. */
export const giftCardMarker = (payoutId: string) => `payout:${payoutId}`;

/** In groups of four, as Shopify prints gift card codes ("ABCD EFGH JKLM NPQR"). */
export function formatGiftCardCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, "$1 ");
}

/** Only the last four characters, as Shopify shows a card to staff ("•••• •••• •••• NPQR"). */
export function maskGiftCardCode(code: string): string {
  const groups = Math.max(Math.ceil(code.length / 4) - 1, 1);
  return `${Array.from({ length: groups }, () => "••••").join(" ")} ${code.slice(-4)}`;
}
