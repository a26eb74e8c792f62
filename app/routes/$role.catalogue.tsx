import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { searchCatalogue } from "~/models/portal/catalogue-search.server";

// GET /{role}/catalogue?kind=product|collection&q=&offset=: a page of the
// synced catalogue for the standalone picker (components/catalogue). Only
// the campaign editor picks products, so it is the campaigns area's.
const query = z.object({
  kind: z.enum(["product", "collection"]),
  // A search longer than any title is cut, not refused.
  q: z
    .string()
    .catch("")
    .transform((v) => v.trim().slice(0, 100)),
  offset: z.coerce.number().int().min(0).max(100_000).catch(0),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "campaigns", query }, async ({ db, query }) =>
  searchCatalogue(db, query.kind, query.q, query.offset),
);
