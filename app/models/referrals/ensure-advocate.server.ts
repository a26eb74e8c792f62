import type { Tx } from "../../db/transaction";

// Placeholder with the contract's signature (docs: referrals contract,
// slice STOREFRONT owns the real one). The CHECKOUT slice calls it from its
// thank-you endpoint; the lead keeps STOREFRONT's file at merge.

export interface AdvocateLink {
  advocateId: string;
  token: string;
  shareUrl: string;
  friendCode: string | null;
  firstName: string;
}

export async function ensureAdvocate(
  _tx: Tx,
  _shop: { id: string; url: string; settings: string },
  _input: {
    email: string;
    customerGid?: string | null;
    firstName?: string;
    hasOrdered: boolean;
    source: "widget" | "thank_you" | "account" | "admin" | "demo";
  },
): Promise<AdvocateLink> {
  throw new Error("not built yet (slice STOREFRONT)");
}
