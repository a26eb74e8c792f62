import { randomUUID } from "node:crypto";
import { prismaBulk, type BulkSql } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { jobRow } from "../jobs/enqueue.server";
import { FLOW_TRIGGERS, type FlowPayload, type FlowTriggerHandle } from "./flow-triggers";

// Queues a Shopify Flow trigger in the caller's transaction: a FlowTrigger
// row (unique per shop and dedupe key) and its flow.trigger job, which sends
// it after the commit (send-flow-trigger.server.ts). A rolled-back change
// sends nothing; a replayed caller (a dispatch run twice) adds nothing.

const jobKey = (triggerId: string) => `flow.trigger:${triggerId}`;

/** Checks the payload's keys against the trigger's fields: a mismatch is a bug here, not Flow's refusal later. */
function checked(handle: FlowTriggerHandle, payload: FlowPayload): string {
  const keys = FLOW_TRIGGERS[handle].fields.map((f) => f.key);
  const given = Object.keys(payload);
  if (given.length !== keys.length || !keys.every((k) => Object.hasOwn(payload, k)))
    throw new Error(`Flow trigger ${handle}: payload keys ${given.join(", ")} are not its fields ${keys.join(", ")}`);
  return JSON.stringify(payload);
}

/**
 * Queues one trigger. `dedupeKey` names what it announces (the domain
 * event's id and the handle, or the caller's own key: one leak, one flag).
 * Other branches call this to fire their triggers (the link leak watch).
 */
export async function enqueueFlowTrigger(
  tx: Tx,
  shopId: string,
  handle: FlowTriggerHandle,
  dedupeKey: string,
  payload: FlowPayload,
) {
  const written = await writeFlowTrigger(prismaBulk(tx, dialectOf(tx)), shopId, handle, dedupeKey, payload);
  if (written) return written;
  const existing = await tx.flowTrigger.findUniqueOrThrow({
    where: { shopId_dedupeKey: { shopId, dedupeKey } },
    select: { id: true },
  });
  return existing.id;
}

/**
 * enqueueFlowTrigger with bulk statements (the event dispatch's writer):
 * the row unless its key is taken, and its job only with it. Answers the new
 * row's id, or null when the key was taken.
 */
export async function writeFlowTrigger(
  writer: BulkSql,
  shopId: string,
  handle: FlowTriggerHandle,
  dedupeKey: string,
  payload: FlowPayload,
) {
  const { trigger, job } = flowTriggerRows(shopId, handle, dedupeKey, payload, new Date());
  const [id] = await writer.insertNew("FlowTrigger", [trigger], "id");
  if (!id) return null;
  await writer.insertRows("Job", [job], { onConflict: "ignore" });
  return id;
}

/** A FlowTrigger row and its Job row for a caller's bulk insert (the batch event dispatch). */
export function flowTriggerRows(
  shopId: string,
  handle: FlowTriggerHandle,
  dedupeKey: string,
  payload: FlowPayload,
  now: Date,
) {
  const id = randomUUID();
  return {
    trigger: { id, shopId, handle, dedupeKey, payload: checked(handle, payload), status: "pending", createdAt: now },
    job: jobRow("flow.trigger", { triggerId: id }, { now, uniqueKey: jobKey(id) }),
  };
}

/** The dedupe key of a trigger that announces a domain event. */
export const eventTriggerKey = (eventId: string, handle: FlowTriggerHandle) => `${eventId}:${handle}`;

/**
 * Whether the shop can take Flow triggers: installed, with the offline
 * session the Admin API needs (a standalone or uninstalled shop has none,
 * and queuing rows it can never send would only fill the table).
 */
export async function shopTakesFlowTriggers(reader: Tx, shopId: string): Promise<boolean> {
  const shop = await reader.shop.findUnique({ where: { id: shopId }, select: { domain: true, uninstalledAt: true } });
  if (!shop || shop.uninstalledAt) return false;
  const session = await reader.session.findUnique({ where: { id: `offline_${shop.domain}` }, select: { id: true } });
  return session !== null;
}
