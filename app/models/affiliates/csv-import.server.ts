import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { createAffiliateFromForm } from "./admin-affiliates.server";
import { columnOf, parseAffiliateCsv, type ImportError } from "./csv-format";

// CSV import: all or nothing. Every row is checked (the file's own rules,
// then the shop's: campaign, unique e-mail / code / coupons, upline) inside
// one transaction; if any row fails, the transaction is rolled back and the
// merchant gets every row's problems. An upline may name a row above it in
// the same file (rows are created in order).

export type ImportResult = { ok: true; imported: number } | { ok: false; errors: ImportError[] };

class RollBack extends Error {}

// A few thousand rows of checks take longer than Prisma's default 5 s.
const TRANSACTION = { timeout: 300_000, maxWait: 30_000 };
const MAX_REPORTED = 500;

export async function importAffiliatesCsv(shopId: string, text: string): Promise<ImportResult> {
  const parsed = parseAffiliateCsv(text);
  if (!parsed.rows.length) return { ok: false, errors: parsed.errors.slice(0, MAX_REPORTED) };
  const errors = [...parsed.errors];
  let imported = 0;
  try {
    await getDb().$transaction(async (tx) => {
      const campaigns = await tx.campaign.findMany({ where: { shopId }, select: { id: true, name: true } });
      for (const { row, form, campaign } of parsed.rows) {
        let campaignId: string | undefined;
        if (campaign) {
          const matches = campaigns.filter((c) => c.id === campaign || c.name.toLowerCase() === campaign.toLowerCase());
          if (matches.length !== 1) {
            errors.push({
              row,
              column: "campaign",
              message: matches.length
                ? "Several campaigns have this name; use the campaign's id"
                : "No campaign with this name or id",
            });
            continue;
          }
          campaignId = matches[0]!.id;
        }
        try {
          await createAffiliateFromForm(tx, shopId, { ...form, campaign_id: campaignId });
          imported++;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const fields = Object.entries(error.fields ?? {});
          if (!fields.length) errors.push({ row, column: "", message: error.message });
          for (const [field, message] of fields) errors.push({ row, column: columnOf(field), message });
        }
      }
      if (errors.length) throw new RollBack();
    }, TRANSACTION);
  } catch (error) {
    if (error instanceof RollBack) {
      errors.sort((a, b) => a.row - b.row);
      return { ok: false, errors: errors.slice(0, MAX_REPORTED) };
    }
    if ((error as { code?: string })?.code === "P2002") {
      throw new AppError("conflict", "An e-mail, referral code or coupon code was taken meanwhile; import again.");
    }
    throw error;
  }
  return { ok: true, imported };
}
