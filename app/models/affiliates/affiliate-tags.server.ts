import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { TAGS_PER_AFFILIATE } from "./affiliate-tags";

// Writes an affiliate's tags (ADR 057). Adding a tag the affiliate has, or
// removing one it has not, changes nothing; the answer says what changed.
// Each add is an upsert on the unique (shop, affiliate, tag), so two writers
// adding the same tag at once leave one row.

export interface TagChange {
  added: string[];
  removed: string[];
  tags: string[];
}

export async function changeAffiliateTags(
  tx: Tx,
  shopId: string,
  affiliateId: string,
  change: { add: readonly string[]; remove: readonly string[] },
): Promise<TagChange> {
  const current = await tx.affiliateTag.findMany({ where: { shopId, affiliateId }, select: { tag: true } });
  const have = new Set(current.map((t) => t.tag));
  const removed = change.remove.filter((t) => have.has(t) && !change.add.includes(t));
  const added = change.add.filter((t) => !have.has(t));
  const count = have.size - removed.length + added.length;
  if (count > TAGS_PER_AFFILIATE)
    throw new AppError(
      "conflict",
      `The affiliate has ${have.size} tags; adding ${added.length} would pass the limit of ${TAGS_PER_AFFILIATE}.`,
    );
  if (removed.length) await tx.affiliateTag.deleteMany({ where: { shopId, affiliateId, tag: { in: removed } } });
  for (const tag of added)
    await tx.affiliateTag.upsert({
      where: { shopId_affiliateId_tag: { shopId, affiliateId, tag } },
      create: { shopId, affiliateId, tag },
      update: {},
    });
  const tags = [...[...have].filter((t) => !removed.includes(t)), ...added].sort();
  return { added, removed, tags };
}
