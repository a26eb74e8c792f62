import type { Db } from "../../db.server";
import { adminClientFor } from "../shopify/admin-client.server";
import { FLOW_TRIGGER_RECEIVE } from "../shopify/admin-operations";

// The "flow.trigger" job: sends one queued FlowTrigger to Shopify with
// flowTriggerReceive, then marks it sent. A row already sent (or skipped)
// is not sent again, so a replayed job does nothing; the mark is a
// compare-and-set on "pending". Flow starts whatever workflows use the
// trigger, none included: "no workflow" is a success like any other
// (docs/decisions/049). A throttled or failed request throws, and the queue
// tries again with backoff. Shopify's userErrors (an unknown handle, a
// payload that misses a field) would be the same on every try: the row is
// marked refused with them, and the job ends.

export type FlowTriggerOutcome = "sent" | "refused" | "skipped" | "done before";

export async function sendFlowTrigger(payload: { triggerId: string }, db: Db): Promise<FlowTriggerOutcome> {
  const row = await db.flowTrigger.findUnique({
    where: { id: payload.triggerId },
    include: { shop: { select: { domain: true, uninstalledAt: true } } },
  });
  if (!row || row.status !== "pending") return "done before";
  const finish = (status: "sent" | "refused" | "skipped", result: string | null) =>
    db.flowTrigger.updateMany({
      where: { id: row.id, status: "pending" },
      data: { status, result, sentAt: status === "sent" ? new Date() : null },
    });

  const client = row.shop.uninstalledAt ? null : await adminClientFor(row.shop.domain);
  if (!client) {
    await finish("skipped", "no Admin API access (shop uninstalled or not embedded)");
    return "skipped";
  }
  const answer = await client.run(FLOW_TRIGGER_RECEIVE, {
    handle: row.handle,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  });
  const errors = answer.data.flowTriggerReceive.userErrors;
  if (errors.length) {
    await finish("refused", JSON.stringify(errors).slice(0, 2000));
    return "refused";
  }
  await finish("sent", null);
  return "sent";
}
