import { getDb, type Db } from "../../db.server";
import { FLOW_ACTION_HANDLES, FLOW_ACTIONS } from "./flow-actions";
import { shopTakesFlowTriggers } from "./flow-trigger-queue.server";
import { FLOW_TRIGGER_HANDLES, FLOW_TRIGGERS } from "./flow-triggers";

// Settings › Shopify Flow: what the app offers Flow (the two tables) and
// whether Flow can reach this shop. A shop connected to Shopify (installed,
// with the offline session the Admin API needs) gets its triggers sent and
// can run the actions; a standalone shop has no Shopify, so no Flow. The
// names are Flow's (the extensions' English names, as the merchant finds
// them in Flow's editor); the page words the sentences in the admin's language.

export interface FlowOverview {
  reachable: boolean;
  triggers: { handle: string; name: string }[];
  actions: { handle: string; name: string }[];
}

export async function flowOverview(shopId: string, db: Db = getDb()): Promise<FlowOverview> {
  // The session table belongs to no shop; this reads only the row of the shop's own domain.
  const reachable = await shopTakesFlowTriggers(db as never, shopId);
  return {
    reachable,
    triggers: FLOW_TRIGGER_HANDLES.map((handle) => ({ handle, name: FLOW_TRIGGERS[handle].name })),
    actions: FLOW_ACTION_HANDLES.map((handle) => ({ handle, name: FLOW_ACTIONS[handle].name })),
  };
}
