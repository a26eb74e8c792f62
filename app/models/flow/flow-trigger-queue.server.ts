import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/transaction";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
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
  const body = checked(handle, payload);
  const existing = await tx.flowTrigger.findUnique({
    where: { shopId_dedupeKey: { shopId, dedupeKey } },
    select: { id: true },
  });
  if (existing) return existing.id;
  const row = await tx.flowTrigger.create({ data: { shopId, handle, dedupeKey, payload: body }, select: { id: true } });
  await enqueueJob(tx, "flow.trigger", { triggerId: row.id }, { uniqueKey: jobKey(row.id) });
  return row.id;
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
