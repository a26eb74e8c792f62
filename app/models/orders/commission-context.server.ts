import type { Tx } from "../jobs/job-queue.server";
import type { CampaignTerms } from "../commissions/calculate-commission";

// Loads what the commission calculator needs about an affiliate's campaign
// and upline chain.

export async function campaignTerms(tx: Tx, campaignId: string): Promise<CampaignTerms & { autoApproveOrders: boolean; approvalHoldDays: number; lifetimeCustomerLink: boolean }> {
  const c = await tx.campaign.findUniqueOrThrow({ where: { id: campaignId }, include: { levels: true, rules: true } });
  return {
    commissionType: c.commissionType as CampaignTerms["commissionType"],
    commissionValue: c.commissionValue,
    newCustomerValue: c.newCustomerValue,
    rules: c.rules.map((r) => ({
      targetType: r.targetType as "product" | "collection",
      targetGid: r.targetGid,
      kind: r.kind as "rate" | "exclude",
      commissionType: r.commissionType as "percent" | "flat_item",
      value: r.value,
    })),
    levels: c.levels.map((l) => ({ level: l.level, basis: l.basis as "percent_of_sale" | "percent_of_commission", rate: l.rate })),
    autoApproveOrders: c.autoApproveOrders,
    approvalHoldDays: c.approvalHoldDays,
    lifetimeCustomerLink: c.lifetimeCustomerLink,
  };
}

/**
 * [level 1 affiliate, level 2 upline, ...] up to `depth`, with null where an
 * upline is not approved. A cycle in the data (which the app refuses to
 * create) stops the walk instead of looping.
 */
export async function uplineChain(tx: Tx, affiliateId: string, depth: number): Promise<(string | null)[]> {
  const chain: (string | null)[] = [affiliateId];
  const seen = new Set([affiliateId]);
  let current = await tx.affiliate.findUnique({ where: { id: affiliateId }, select: { parentId: true } });
  while (chain.length < depth && current?.parentId && !seen.has(current.parentId)) {
    const parent = await tx.affiliate.findUnique({ where: { id: current.parentId }, select: { id: true, parentId: true, status: true } });
    if (!parent) break;
    seen.add(parent.id);
    chain.push(parent.status === "approved" ? parent.id : null);
    current = parent;
  }
  return chain;
}
