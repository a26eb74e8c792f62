import type { Tx } from "../../db/transaction";
import type { ContractPayload } from "./contract-payload";

// subscription_contracts/create and /update: the contract, the order it
// started from and its customer, kept per shop (unique on the contract's
// GID). A second delivery, or an update older than the revision already
// kept, changes nothing; the origin order, once known, is never replaced.

const revisionOf = (payload: ContractPayload) =>
  BigInt(/^\d+$/.test(payload.revision_id ?? "") ? payload.revision_id! : 0);

export async function recordContract(
  tx: Tx,
  shopId: string,
  payload: ContractPayload,
): Promise<"created" | "updated" | "unchanged"> {
  const contractGid = payload.admin_graphql_api_id;
  const customerGid =
    payload.admin_graphql_api_customer_id ??
    (payload.customer_id ? `gid://shopify/Customer/${payload.customer_id}` : null);
  const originOrderGid =
    payload.admin_graphql_api_origin_order_id ??
    (payload.origin_order_id ? `gid://shopify/Order/${payload.origin_order_id}` : null);
  const status = payload.status.toLowerCase();
  const revision = revisionOf(payload);
  const kept = await tx.subscriptionContract.findUnique({ where: { shopId_contractGid: { shopId, contractGid } } });
  if (!kept) {
    // Two workers creating the same contract at once: one hits the unique key,
    // its job is tried again and then finds the row.
    await tx.subscriptionContract.create({
      data: { shopId, contractGid, originOrderGid, customerGid, status, revisionId: String(revision) },
    });
    return "created";
  }
  const newer = revision > BigInt(kept.revisionId);
  const changes = {
    ...(newer && status !== kept.status ? { status } : {}),
    ...(newer ? { revisionId: String(revision) } : {}),
    ...(!kept.originOrderGid && originOrderGid ? { originOrderGid } : {}),
    ...(!kept.customerGid && customerGid ? { customerGid } : {}),
  };
  if (Object.keys(changes).length === 0) return "unchanged";
  // Compare-and-set on the revision read: a concurrent update of the same contract wins or loses whole.
  const updated = await tx.subscriptionContract.updateMany({
    where: { id: kept.id, revisionId: kept.revisionId },
    data: changes,
  });
  return updated.count === 1 ? "updated" : "unchanged";
}
