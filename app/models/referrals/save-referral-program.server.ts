import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { currencyExponent } from "../../lib/money";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { programFromForm, programToForm, type ReferralProgramForm } from "./program-form";
import { readReferralProgram, referralProgramSchema, type ReferralProgram } from "./program-settings";
import { queueReferralWithdrawal } from "./withdraw.server";

// Reading and saving the refer-a-friend program (Shop.settings "referrals").
// The settings screen saves the typed form, the REST API the program itself
// (whole, or only the parts it sends merged onto what is stored). Switching
// the program off withdraws every advocate's codes in the same transaction,
// so a switched-off program never leaves working friend codes behind.

export async function getReferralProgram(db: ShopDb): Promise<ReferralProgram> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return readReferralProgram(shop.settings);
}

/** The program as the settings screen types it, in the shop's currency. */
export async function getReferralProgramForm(db: ShopDb): Promise<{ form: ReferralProgramForm; currency: string }> {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, currency: true },
  });
  return {
    form: programToForm(readReferralProgram(shop.settings), currencyExponent(shop.currency)),
    currency: shop.currency,
  };
}

/** Saves the program (already valid); returns it as stored. */
export async function saveReferralProgram(db: ShopDb, program: ReferralProgram): Promise<ReferralProgram> {
  const checked = referralProgramSchema.parse(program);
  return db.$transaction(async (tx) => {
    const shop = await tx.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
    const before = readReferralProgram(shop.settings);
    const settings = await saveShopSetting(tx, db.$shopId, "referrals", checked);
    if (before.enabled && !checked.enabled) await queueReferralWithdrawal(tx, db.$shopId);
    return readReferralProgram(settings);
  });
}

/** The settings screen's save: the typed form in the shop currency; field errors are 422 and change nothing. */
export async function saveReferralProgramForm(db: ShopDb, form: ReferralProgramForm): Promise<ReferralProgramForm> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { currency: true } });
  const exponent = currencyExponent(shop.currency);
  const result = programFromForm(form, exponent);
  if (!result.ok) throw validationFailed(result.fields);
  return programToForm(await saveReferralProgram(db, result.program), exponent);
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === "object" && !Array.isArray(v);

/**
 * The REST API's PUT: the parts of the program the client sends replace the
 * stored ones (nested objects key by key), the result must be a whole valid
 * program.
 */
export async function updateReferralProgram(db: ShopDb, patch: unknown): Promise<ReferralProgram> {
  if (!isObject(patch)) throw validationFailed({ _: "Send the program as a JSON object." });
  const stored = await getReferralProgram(db);
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value;
  }
  const parsed = referralProgramSchema.safeParse(merged);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
    throw validationFailed(fields);
  }
  return saveReferralProgram(db, parsed.data);
}

function validationFailed(fields: Record<string, string>) {
  return new AppError("validation_failed", "Check the highlighted fields.", { fields });
}
