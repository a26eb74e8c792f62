import { json } from "@remix-run/node";
import { z } from "zod";
import { flowActionRoute } from "~/door/public-route.server";
import { runFlowAction } from "~/models/flow/run-flow-action.server";

// POST /flow/actions/{handle}: a Shopify Flow action of the app (extensions/
// flow-action-*), signed by Shopify with the app's secret (checked by the door).
const params = z.object({ handle: z.string().min(1).max(100) });

export const action = /* @__PURE__ */ flowActionRoute({ params }, async ({ params, rawBody }) => {
  const answer = await runFlowAction(params.handle, rawBody);
  return json(answer.body, { status: answer.status });
});
