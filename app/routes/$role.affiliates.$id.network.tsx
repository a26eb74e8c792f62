import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { affiliateDownline } from "~/models/networks/network.server";

// GET /{role}/affiliates/{id}/network?after=: one page of the affiliate's
// recruits, as JSON. The affiliate page opens deeper levels of its downline
// through here, so staff who may see affiliates but not Settings can too.
const params = idParams("affiliate");
const query = z.object({ after: z.string().max(200).optional() });

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", params, query },
  async ({ db, params, query }) => ({
    network: { level: await affiliateDownline(db, params.id, query.after ?? null) },
  }),
);
