import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";

// What an affiliate earns on one product at its price, as the commission
// calculator would credit a one-item order of it: the campaign's rate, the
// product's or its collection's rule, or nothing for an excluded product.
// A new-customer rate is shown beside it when the campaign has one.

export interface ProductForCommission {
  gid: string;
  price: number | null;
  collectionGids: readonly string[];
}

export interface ProductCommission {
  // Null when the product's price is not known yet.
  amount: number | null;
  newCustomerAmount: number | null;
  excluded: boolean;
}

export function productCommission(
  terms: CampaignTerms,
  product: ProductForCommission,
  currency: string,
): ProductCommission {
  const excluded = isExcluded(terms, product);
  if (product.price === null) return { amount: null, newCustomerAmount: null, excluded };
  const earn = (isNewCustomer: boolean) =>
    calculateCommissions(terms, {
      currency,
      isNewCustomer,
      lines: [{ id: product.gid, productGid: product.gid, quantity: 1, amount: product.price! }],
      collectionsByProduct: { [product.gid]: product.collectionGids },
      chain: ["affiliate"],
    }).lines[0]?.amount ?? 0;
  const amount = earn(false);
  const forNew = terms.newCustomerValue === null ? amount : earn(true);
  return { amount, newCustomerAmount: forNew === amount ? null : forNew, excluded };
}

function isExcluded(terms: CampaignTerms, product: ProductForCommission): boolean {
  const own = terms.rules.find((r) => r.targetType === "product" && r.targetGid === product.gid);
  if (own) return own.kind === "exclude";
  const viaCollection = terms.rules.find(
    (r) => r.targetType === "collection" && product.collectionGids.includes(r.targetGid),
  );
  return viaCollection?.kind === "exclude";
}
