// Shopify sends numeric ids above 2^53 (order 820982911946154508): JSON.parse
// would round them, and two line items could then share an id. Integer
// literals of 16+ digits are turned into strings before parsing.
const BIG_INT_LITERAL = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

export function parseShopifyJson(text: string): unknown {
  return JSON.parse(text.replace(BIG_INT_LITERAL, '$1"$2"'));
}
