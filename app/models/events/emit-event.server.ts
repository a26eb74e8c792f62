import type { Tx } from "../../db/transaction";
import { enqueueJob } from "../jobs/enqueue.server";
import { EVENT_TYPES, type EventData, type EventType } from "./event-types";

/**
 * Records a domain event in the caller's transaction and queues its
 * dispatch: a rolled-back change announces nothing, and a committed one is
 * announced even if the process dies right after the commit.
 */
export async function emitEvent<T extends EventType>(tx: Tx, shopId: string, type: T, data: EventData<T>) {
  const parsed = EVENT_TYPES[type].parse(data);
  const row = await tx.domainEvent.create({
    data: { shopId, type, data: JSON.stringify(parsed) },
    select: { id: true },
  });
  await enqueueJob(tx, "event.dispatch", { eventId: row.id });
  return row.id;
}
