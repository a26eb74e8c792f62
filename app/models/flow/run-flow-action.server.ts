import { getDb, type Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { AppError, errorBody } from "../../lib/errors";
import { changeAffiliateTags } from "../affiliates/affiliate-tags.server";
import { emitStatusEvent, insertAffiliate, mapUniqueViolation } from "../affiliates/affiliate-writes.server";
import { ACTION_TARGET, statusesFor } from "../affiliates/status-transitions";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { adjustCommission } from "./adjust-commission.server";
import { findAffiliate } from "./find-affiliate.server";
import {
  firstProblem,
  FLOW_ACTION_PROPERTIES,
  flowActionRequestSchema,
  isFlowActionHandle,
  type FlowActionHandle,
} from "./flow-actions";

// Carries out one Shopify Flow action request (the door checked its
// signature). The change and its FlowActionRun row (unique per shop and
// Flow's action_run_id) commit together, so Flow's retry of the same run
// changes nothing and gets the first answer again. Answers: 200 done (or
// nothing to do), 4xx with a message Flow shows in the run log (bad input,
// an affiliate in a state the action cannot change, a lost race: 409, which
// changed nothing). Everything is scoped to the shop the request names.

export interface FlowAnswer {
  status: number;
  body: Record<string, unknown>;
}

const fail = (code: ConstructorParameters<typeof AppError>[0], message: string) => new AppError(code, message);

function parseJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw fail("bad_request", "The body is not JSON.");
  }
}

/** Approve or deny: a compare-and-set on the statuses the action applies to; only the winner announces it. */
async function setStatus(tx: Tx, shopId: string, ref: string, action: "approve" | "deny"): Promise<FlowAnswer> {
  const affiliate = await findAffiliate(tx, shopId, ref);
  const target = ACTION_TARGET[action];
  if (affiliate.status === target)
    return { status: 200, body: { affiliate_id: affiliate.id, status: target, changed: false } };
  const moved = await tx.affiliate.updateMany({
    where: { id: affiliate.id, shopId, status: { in: [...statusesFor(action)] } },
    data: { status: target },
  });
  if (moved.count === 0) {
    const now = await tx.affiliate.findFirst({ where: { id: affiliate.id, shopId }, select: { status: true } });
    throw fail("conflict", `The affiliate is ${now?.status ?? "gone"}; it cannot be ${target} from there.`);
  }
  await emitStatusEvent(tx, shopId, affiliate.id, target);
  return { status: 200, body: { affiliate_id: affiliate.id, status: target, changed: true } };
}

async function perform(
  tx: Tx,
  shopId: string,
  handle: FlowActionHandle,
  request: { action_run_id: string; properties: unknown },
): Promise<FlowAnswer> {
  const parsed = FLOW_ACTION_PROPERTIES[handle].safeParse(request.properties);
  if (!parsed.success) throw fail("validation_failed", firstProblem(parsed.error));
  switch (handle) {
    case "create-affiliate": {
      const p = parsed.data as {
        email: string;
        first_name: string;
        last_name: string;
        campaign_id?: string;
        status?: "pending" | "approved";
      };
      const created = await insertAffiliate(tx, shopId, { ...p, parent_id: null, coupon_codes: [] }, "flow");
      return { status: 200, body: { affiliate_id: created.id, status: created.status, changed: true } };
    }
    case "approve-affiliate":
    case "deny-affiliate":
      return setStatus(
        tx,
        shopId,
        (parsed.data as { affiliate: string }).affiliate,
        handle === "approve-affiliate" ? "approve" : "deny",
      );
    case "adjust-commission": {
      const p = parsed.data as { order: string; amount: number | string; note: string; affiliate?: string };
      const line = await adjustCommission(tx, shopId, { ...p, runId: request.action_run_id });
      return { status: 200, body: { ...line, changed: true } };
    }
    case "tag-affiliate": {
      const p = parsed.data as { affiliate: string; add: string[]; remove: string[] };
      const affiliate = await findAffiliate(tx, shopId, p.affiliate);
      const change = await changeAffiliateTags(tx, shopId, affiliate.id, p);
      return {
        status: 200,
        body: {
          affiliate_id: affiliate.id,
          tags: change.tags,
          added: change.added,
          removed: change.removed,
          changed: change.added.length + change.removed.length > 0,
        },
      };
    }
  }
}

const isUnique = (error: unknown) => (error as { code?: string })?.code === "P2002";

async function storedAnswer(db: Db, shopId: string, actionRunId: string): Promise<FlowAnswer | null> {
  const run = await db.flowActionRun.findUnique({ where: { shopId_actionRunId: { shopId, actionRunId } } });
  return run ? { status: run.status, body: JSON.parse(run.response) as Record<string, unknown> } : null;
}

/** The answer to one signed Flow action request for `handle`. */
export async function runFlowAction(handle: string, rawBody: string, db: Db = getDb()): Promise<FlowAnswer> {
  if (!isFlowActionHandle(handle)) throw fail("not_found", `No Flow action ${handle}.`);
  const envelope = flowActionRequestSchema.safeParse(parseJson(rawBody));
  if (!envelope.success) throw fail("bad_request", firstProblem(envelope.error));
  const request = envelope.data;
  if (request.handle && request.handle !== handle)
    throw fail("bad_request", `The body's handle ${request.handle} is not this action's (${handle}).`);
  const shop = await db.shop.findUnique({
    where: { domain: request.shopify_domain },
    select: { id: true, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt) throw fail("not_found", `The app is not installed on ${request.shopify_domain}.`);

  const before = await storedAnswer(db, shop.id, request.action_run_id);
  if (before) return before;
  const record = (tx: Tx | Db, answer: FlowAnswer) =>
    tx.flowActionRun.create({
      data: {
        shopId: shop.id,
        actionRunId: request.action_run_id,
        handle,
        status: answer.status,
        response: JSON.stringify(answer.body),
      },
    });
  try {
    const answer = await db.$transaction(async (tx) => {
      const done = await perform(tx, shop.id, handle, request);
      await record(tx, done);
      return done;
    });
    notifyJobsEnqueued();
    return answer;
  } catch (error) {
    // The same run answered meanwhile (a concurrent retry): its answer stands.
    if (isUnique(error)) {
      const other = await storedAnswer(db, shop.id, request.action_run_id);
      if (other) return other;
      mapUniqueViolation(error);
    }
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    // A refusal is the run's answer too: a retry gets the same one, whatever changed since.
    const { status, body } = errorBody(error);
    const answer = { status, body: body as unknown as Record<string, unknown> };
    await record(db, answer).catch((e: unknown) => {
      if (!isUnique(e)) throw e;
    });
    return (await storedAnswer(db, shop.id, request.action_run_id)) ?? answer;
  }
}
