// The demo's refer-a-friend advocates: their shared friend codes are discount
// codes of the demo's store simulator too (so `simulate referral --friend-code
// OLIVIA-15` applies a code Shopify would accept), their share tokens
// demoinvite1, demoinvite2, ... (the `?invite=` of their share links).

export const DEMO_ADVOCATES = [
  { email: "olivia.hart@example.com", firstName: "Olivia", code: "OLIVIA-15", source: "thank_you" },
  { email: "marco.rossi@example.com", firstName: "Marco", code: "MARCO-15", source: "widget" },
  { email: "yuki.tanaka@example.com", firstName: "Yuki", code: "YUKI-15", source: "account" },
] as const;

/** An advocate's share token in the demo. */
export const demoInviteToken = (index: number) => `demoinvite${index + 1}`;
