import { randomBytes } from "node:crypto";
import { currencyExponent } from "../lib/money";
import { decimalString, gid, minor, parseGid, requireScopes, type ResolverContext } from "./admin-common";
import {
  bulkCreationView,
  customerView,
  discountNodeView,
  giftCardView,
  shopView,
  storeCreditTransactionView,
  subscriptionView,
  webPixelView,
} from "./admin-views";
import {
  nextId,
  type DiscountRec,
  type ShopState,
  type StoreCreditAccountRec,
  type SubscriptionRec,
} from "./store-state";
import { webPixelSettingsProblems } from "./web-pixel-settings";
import { flowTriggerDefinitions } from "./flow-triggers";

// The mutation root fields the simulated store answers. Bad input comes
// back the way Shopify returns it: `userErrors` with a field path and a
// code, nothing changed. Each change marks the state to be saved.

type Args = Record<string, any>;
interface UserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

const userErrors = (typename: string, errors: UserError[]) =>
  errors.map((e) => ({
    __typename: typename,
    field: e.field,
    message: e.message,
    code: e.code ?? null,
    extraInfo: null,
  }));

function findCustomer(shop: ShopState, id: unknown) {
  const parsed = parseGid(id);
  return parsed?.type === "Customer" ? shop.customers.find((c) => c.id === parsed.id) : undefined;
}

// ---- discount codes ---------------------------------------------------------

function codeTaken(shop: ShopState, code: string, exceptDiscountId?: string) {
  const wanted = code.trim().toLowerCase();
  return shop.discounts.some((d) => d.id !== exceptDiscountId && d.codes.some((c) => c.code.toLowerCase() === wanted));
}

/** Reads a DiscountCodeBasicInput into a record, or the user errors it has. */
function readBasicInput(
  ctx: ResolverContext,
  input: Args,
  kind: "basic" | "free_shipping" = "basic",
): {
  errors: UserError[];
  value?: Omit<DiscountRec, "id" | "codes" | "createdAt" | "updatedAt" | "usedByCustomerIds">;
} {
  const { shop } = ctx;
  const errors: UserError[] = [];
  const at = (...f: string[]) => [kind === "basic" ? "basicCodeDiscount" : "freeShippingCodeDiscount", ...f];
  const currency = shop.details.currencyCode;
  if (!input.title || !String(input.title).trim())
    errors.push({ field: at("title"), message: "Title can't be blank", code: "BLANK" });
  if (input.title && String(input.title).length > 255)
    errors.push({ field: at("title"), message: "Title is too long (maximum is 255 characters)", code: "TOO_LONG" });
  const startsAt = input.startsAt ? new Date(String(input.startsAt)) : ctx.now;
  const endsAt = input.endsAt ? new Date(String(input.endsAt)) : null;
  if (Number.isNaN(startsAt.getTime()))
    errors.push({ field: at("startsAt"), message: "Starts at is invalid", code: "INVALID" });
  if (endsAt && Number.isNaN(endsAt.getTime()))
    errors.push({ field: at("endsAt"), message: "Ends at is invalid", code: "INVALID" });
  else if (endsAt && endsAt <= startsAt)
    errors.push({
      field: at("endsAt"),
      message: "Ends at needs to be after starts_at",
      code: "END_DATE_BEFORE_START_DATE",
    });
  if (input.usageLimit !== undefined && input.usageLimit !== null && input.usageLimit < 1)
    errors.push({ field: at("usageLimit"), message: "Usage limit must be greater than 0", code: "GREATER_THAN" });

  let value: DiscountRec["value"] | undefined;
  const gets = input.customerGets;
  const v = gets?.value;
  if (kind === "free_shipping") {
    value = { type: "free_shipping" };
    if (input.destination && !input.destination.all && !input.destination.countries)
      errors.push({ field: at("destination"), message: "Destination can't be blank", code: "BLANK" });
    if (input.destination?.countries)
      errors.push({
        field: at("destination", "countries"),
        message: "The store simulator does not model shipping countries",
        code: "INVALID",
      });
  } else if (!gets || !v) {
    errors.push({ field: at("customerGets", "value"), message: "Value can't be blank", code: "BLANK" });
  } else if ((v.percentage != null ? 1 : 0) + (v.discountAmount ? 1 : 0) + (v.discountOnQuantity ? 1 : 0) !== 1) {
    errors.push({
      field: at("customerGets", "value"),
      message: "Only one of percentage, discountAmount or discountOnQuantity can be given",
      code: "TOO_MANY_ARGUMENTS",
    });
  } else if (v.discountOnQuantity) {
    errors.push({
      field: at("customerGets", "value", "discountOnQuantity"),
      message: "Discount on quantity is only valid for buy X get Y discounts",
      code: "INVALID",
    });
  } else if (v.percentage != null) {
    if (!(v.percentage > 0 && v.percentage <= 1))
      errors.push({
        field: at("customerGets", "value", "percentage"),
        message: "Value must be between 0.0 and 1.0",
        code: "VALUE_OUTSIDE_RANGE",
      });
    else value = { type: "percentage", percentage: Number(v.percentage) };
  } else {
    const amount = minor(v.discountAmount.amount, currency);
    if (amount === null || amount <= 0)
      errors.push({
        field: at("customerGets", "value", "discountAmount", "amount"),
        message: "Value must be greater than 0",
        code: "GREATER_THAN",
      });
    else
      value = {
        type: "amount",
        amount: (amount / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency)),
        appliesOnEachItem: Boolean(v.discountAmount.appliesOnEachItem),
      };
  }

  let items: DiscountRec["items"] | undefined;
  const it = gets?.items;
  if (kind === "free_shipping") items = { all: true };
  else if (!it) errors.push({ field: at("customerGets", "items"), message: "Items can't be blank", code: "BLANK" });
  else if (it.all) items = { all: true };
  else if (it.products?.productsToAdd?.length) {
    const ids = (it.products.productsToAdd as string[]).map((id) => parseGid(id));
    const unknown = ids.findIndex((p) => !p || p.type !== "Product" || !shop.products.some((x) => x.id === p.id));
    if (unknown >= 0)
      errors.push({
        field: at("customerGets", "items", "products", "productsToAdd", String(unknown)),
        message: "Product does not exist",
        code: "INVALID",
      });
    else items = { productIds: ids.map((p) => p!.id) };
  } else if (it.collections?.add?.length) {
    const ids = (it.collections.add as string[]).map((id) => parseGid(id));
    const unknown = ids.findIndex((c) => !c || c.type !== "Collection" || !shop.collections.some((x) => x.id === c.id));
    if (unknown >= 0)
      errors.push({
        field: at("customerGets", "items", "collections", "add", String(unknown)),
        message: "Collection does not exist",
        code: "INVALID",
      });
    else items = { collectionIds: ids.map((c) => c!.id) };
  } else {
    errors.push({
      field: at("customerGets", "items"),
      message: "Discount must apply to something",
      code: "APPLIES_ON_NOTHING",
    });
  }

  // Who may use it: `context` (current) or `customerSelection` (deprecated).
  let customerIds: string[] | null = null;
  const context = input.context ?? null;
  const selection = input.customerSelection ?? null;
  if (context && selection)
    errors.push({
      field: at("context"),
      message: "Only one of context or customerSelection can be given",
      code: "CONFLICT",
    });
  const customersInput = context?.customers ?? selection?.customers;
  if (context?.customerSegments || context?.markets || selection?.customerSegments) {
    errors.push({
      field: at("context"),
      message: "The store simulator does not model customer segments or markets",
      code: "INVALID",
    });
  } else if (customersInput) {
    const add = (customersInput.add ?? []) as string[];
    if (!add.length)
      errors.push({ field: at("context", "customers", "add"), message: "Customers can't be blank", code: "BLANK" });
    add.forEach((id, i) => {
      if (!findCustomer(shop, id))
        errors.push({
          field: at("context", "customers", "add", String(i)),
          message: "Customer does not exist",
          code: "INVALID",
        });
    });
    customerIds = add.map((id) => parseGid(id)?.id ?? "");
  }

  let minimumSubtotal: string | null = null;
  let minimumQuantity: number | null = null;
  const min = input.minimumRequirement;
  if (min?.subtotal && min?.quantity)
    errors.push({
      field: at("minimumRequirement"),
      message: "Minimum subtotal and quantity cannot both be present",
      code: "MINIMUM_SUBTOTAL_AND_QUANTITY_RANGE_BOTH_PRESENT",
    });
  else if (min?.subtotal) {
    const m = minor(min.subtotal.greaterThanOrEqualToSubtotal, currency);
    if (m === null || m <= 0)
      errors.push({
        field: at("minimumRequirement", "subtotal", "greaterThanOrEqualToSubtotal"),
        message: "Minimum subtotal must be greater than 0",
        code: "GREATER_THAN",
      });
    else minimumSubtotal = (m / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency));
  } else if (min?.quantity) {
    const q = Number(min.quantity.greaterThanOrEqualToQuantity);
    if (!(q >= 1))
      errors.push({
        field: at("minimumRequirement", "quantity", "greaterThanOrEqualToQuantity"),
        message: "Minimum quantity must be greater than 0",
        code: "GREATER_THAN",
      });
    else minimumQuantity = q;
  }

  if (errors.length || !value || !items) return { errors };
  return {
    errors,
    value: {
      title: String(input.title).trim(),
      startsAt: startsAt.toISOString(),
      endsAt: endsAt ? endsAt.toISOString() : null,
      usageLimit: input.usageLimit ?? null,
      appliesOncePerCustomer: Boolean(input.appliesOncePerCustomer),
      value,
      items,
      customerIds,
      minimumSubtotal,
      minimumQuantity,
      combinesWith: {
        orderDiscounts: Boolean(input.combinesWith?.orderDiscounts),
        productDiscounts: Boolean(input.combinesWith?.productDiscounts),
        shippingDiscounts: Boolean(input.combinesWith?.shippingDiscounts),
      },
      tags: (input.tags ?? []) as string[],
      createdByApp: true,
    },
  };
}

function checkCode(ctx: ResolverContext, code: unknown, field: string[], exceptDiscountId?: string): UserError | null {
  const text = typeof code === "string" ? code.trim() : "";
  if (!text) return { field, message: "Code can't be blank", code: "BLANK" };
  if (text.length > 255) return { field, message: "Code is too long (maximum is 255 characters)", code: "TOO_LONG" };
  if (/[\r\n]/.test(text)) return { field, message: "Code cannot contain newline characters.", code: "INVALID" };
  if (codeTaken(ctx.shop, text, exceptDiscountId))
    return { field, message: "Code must be unique. Please try a different code.", code: "TAKEN" };
  return null;
}

function discountCodeBasicCreate(ctx: ResolverContext, { basicCodeDiscount: input }: Args) {
  requireScopes(ctx, "discountCodeBasicCreate");
  const { errors, value } = readBasicInput(ctx, input);
  const codeError = checkCode(ctx, input.code, ["basicCodeDiscount", "code"]);
  if (codeError) errors.unshift(codeError);
  if (errors.length || !value) return { codeDiscountNode: null, userErrors: userErrors("DiscountUserError", errors) };
  const now = ctx.now.toISOString();
  const d: DiscountRec = {
    ...value,
    id: nextId(ctx.state),
    codes: [{ id: nextId(ctx.state), code: String(input.code).trim(), usageCount: 0, createdByApp: true }],
    usedByCustomerIds: [],
    createdAt: now,
    updatedAt: now,
  };
  ctx.shop.discounts.push(d);
  ctx.changed = true;
  return { codeDiscountNode: discountNodeView(ctx, d), userErrors: [] };
}

// Free shipping reads the same fields as a basic code (title, code, dates,
// limits, customers, minimum, combinations) plus the destination; it has no
// customerGets.
function discountCodeFreeShippingCreate(ctx: ResolverContext, { freeShippingCodeDiscount: input }: Args) {
  requireScopes(ctx, "discountCodeFreeShippingCreate");
  const { errors, value } = readBasicInput(ctx, input, "free_shipping");
  const codeError = checkCode(ctx, input.code, ["freeShippingCodeDiscount", "code"]);
  if (codeError) errors.unshift(codeError);
  if (errors.length || !value) return { codeDiscountNode: null, userErrors: userErrors("DiscountUserError", errors) };
  const now = ctx.now.toISOString();
  const d: DiscountRec = {
    ...value,
    id: nextId(ctx.state),
    codes: [{ id: nextId(ctx.state), code: String(input.code).trim(), usageCount: 0, createdByApp: true }],
    usedByCustomerIds: [],
    createdAt: now,
    updatedAt: now,
  };
  ctx.shop.discounts.push(d);
  ctx.changed = true;
  return { codeDiscountNode: discountNodeView(ctx, d), userErrors: [] };
}

function discountCodeDelete(ctx: ResolverContext, { id }: Args) {
  requireScopes(ctx, "discountCodeDelete");
  const parsed = parseGid(id);
  const i = parsed?.type === "DiscountCodeNode" ? ctx.shop.discounts.findIndex((d) => d.id === parsed.id) : -1;
  if (i < 0)
    return {
      deletedCodeDiscountId: null,
      userErrors: userErrors("DiscountUserError", [
        { field: ["id"], message: "Discount does not exist", code: "INVALID" },
      ]),
    };
  ctx.shop.discounts.splice(i, 1);
  ctx.changed = true;
  return { deletedCodeDiscountId: id, userErrors: [] };
}

// Shopify ends a deactivated discount now: its status reads EXPIRED and its
// codes no longer apply at checkout. Deactivating one already ended changes nothing.
function discountCodeDeactivate(ctx: ResolverContext, { id }: Args) {
  requireScopes(ctx, "discountCodeDeactivate");
  const parsed = parseGid(id);
  const d = parsed?.type === "DiscountCodeNode" ? ctx.shop.discounts.find((x) => x.id === parsed.id) : undefined;
  if (!d)
    return {
      codeDiscountNode: null,
      userErrors: userErrors("DiscountUserError", [
        { field: ["id"], message: "Discount does not exist", code: "INVALID" },
      ]),
    };
  if (!d.endsAt || Date.parse(d.endsAt) > ctx.now.getTime()) {
    d.endsAt = ctx.now.toISOString();
    d.updatedAt = d.endsAt;
    ctx.changed = true;
  }
  return { codeDiscountNode: discountNodeView(ctx, d), userErrors: [] };
}

const BULK_MAX = 250;

function discountRedeemCodeBulkAdd(ctx: ResolverContext, { discountId, codes }: Args) {
  requireScopes(ctx, "discountRedeemCodeBulkAdd");
  const parsed = parseGid(discountId);
  const d = parsed?.type === "DiscountCodeNode" ? ctx.shop.discounts.find((x) => x.id === parsed.id) : undefined;
  const fail = (e: UserError) => ({ bulkCreation: null, userErrors: userErrors("DiscountUserError", [e]) });
  if (!d) return fail({ field: ["discountId"], message: "Code discount does not exist.", code: "INVALID" });
  const list = codes as { code: string }[];
  if (!list.length) return fail({ field: ["codes"], message: "Codes can't be blank", code: "BLANK" });
  if (list.length > BULK_MAX)
    return fail({
      field: ["codes"],
      message: `Codes can't exceed ${BULK_MAX} per request`,
      code: "TOO_MANY_ARGUMENTS",
    });
  const seen = new Set<string>();
  const entries = list.map((c, i) => {
    const text = String(c.code ?? "").trim();
    const problem =
      checkCode(ctx, text, ["codes", String(i), "code"]) ??
      (seen.has(text.toLowerCase())
        ? {
            field: ["codes", String(i), "code"],
            message: "Code must be unique. Please try a different code.",
            code: "TAKEN",
          }
        : null);
    seen.add(text.toLowerCase());
    if (problem)
      return {
        code: text,
        redeemCodeId: null,
        errors: [{ field: problem.field ?? [], message: problem.message, code: problem.code ?? "INVALID" }],
      };
    const rec = { id: nextId(ctx.state), code: text, usageCount: 0, createdByApp: true };
    d.codes.push(rec);
    return { code: text, redeemCodeId: rec.id, errors: [] };
  });
  const bulk = { id: nextId(ctx.state), discountId: d.id, createdAt: ctx.now.toISOString(), codes: entries };
  ctx.shop.bulkCreations.push(bulk);
  d.updatedAt = ctx.now.toISOString();
  ctx.changed = true;
  return { bulkCreation: bulkCreationView(ctx, bulk, true), userErrors: [] };
}

// ---- store credit -----------------------------------------------------------

function creditOrDebit(ctx: ResolverContext, kind: "credit" | "debit", args: Args) {
  const field = kind === "credit" ? "storeCreditAccountCredit" : "storeCreditAccountDebit";
  requireScopes(ctx, field);
  const errorType = kind === "credit" ? "StoreCreditAccountCreditUserError" : "StoreCreditAccountDebitUserError";
  const inputName = kind === "credit" ? "creditInput" : "debitInput";
  const amountName = kind === "credit" ? "creditAmount" : "debitAmount";
  const money = args[inputName][amountName] as { amount: unknown; currencyCode: string };
  const fail = (e: UserError) => ({ storeCreditAccountTransaction: null, userErrors: userErrors(errorType, [e]) });
  const { shop } = ctx;
  const currency = String(money.currencyCode);
  const amount = minor(money.amount, currency);
  if (amount === null || amount <= 0)
    return fail({
      field: [inputName, amountName, "amount"],
      message: "The amount must be greater than zero.",
      code: "NEGATIVE_OR_ZERO_AMOUNT",
    });

  const parsed = parseGid(args.id);
  let account: StoreCreditAccountRec | undefined;
  if (parsed?.type === "StoreCreditAccount") {
    account = shop.storeCreditAccounts.find((a) => a.id === parsed.id);
    if (!account)
      return fail({ field: ["id"], message: "Store credit account does not exist.", code: "ACCOUNT_NOT_FOUND" });
    if (account.currency !== currency)
      return fail({
        field: [inputName, amountName, "currencyCode"],
        message: "The currency provided does not match the currency of the store credit account.",
        code: "MISMATCHING_CURRENCY",
      });
  } else if (parsed?.type === "Customer") {
    const customer = findCustomer(shop, args.id);
    if (!customer)
      return kind === "credit"
        ? fail({ field: ["id"], message: "Owner does not exist.", code: "OWNER_NOT_FOUND" })
        : fail({ field: ["id"], message: "Store credit account does not exist.", code: "ACCOUNT_NOT_FOUND" });
    account = shop.storeCreditAccounts.find((a) => a.customerId === customer.id && a.currency === currency);
    if (!account && kind === "debit")
      return fail({ field: ["id"], message: "Store credit account does not exist.", code: "ACCOUNT_NOT_FOUND" });
    if (!account) {
      if (currency !== shop.details.currencyCode)
        return fail({
          field: [inputName, amountName, "currencyCode"],
          message: "The currency provided is not supported by the shop.",
          code: "UNSUPPORTED_CURRENCY",
        });
      account = { id: nextId(ctx.state), customerId: customer.id, currency, balance: 0, transactions: [] };
      shop.storeCreditAccounts.push(account);
    }
  } else {
    return fail({ field: ["id"], message: "Store credit account does not exist.", code: "ACCOUNT_NOT_FOUND" });
  }

  let expiresAt: string | null = null;
  if (kind === "credit" && args.creditInput.expiresAt) {
    const when = new Date(String(args.creditInput.expiresAt));
    if (Number.isNaN(when.getTime()) || when <= ctx.now)
      return fail({
        field: ["creditInput", "expiresAt"],
        message: "The expiry date must be in the future.",
        code: "EXPIRES_AT_IN_PAST",
      });
    expiresAt = when.toISOString();
  }
  if (kind === "debit" && amount > account.balance)
    return fail({
      field: ["debitInput", "debitAmount", "amount"],
      message: "The store credit account does not have sufficient funds.",
      code: "INSUFFICIENT_FUNDS",
    });
  account.balance += kind === "credit" ? amount : -amount;
  const tx = {
    id: nextId(ctx.state),
    kind,
    amount: kind === "credit" ? amount : -amount,
    balanceAfter: account.balance,
    createdAt: ctx.now.toISOString(),
    expiresAt,
  } as const;
  account.transactions.push(tx);
  ctx.changed = true;
  return { storeCreditAccountTransaction: storeCreditTransactionView(ctx, account, tx), userErrors: [] };
}

// ---- gift cards -------------------------------------------------------------

// giftCardCreate as Shopify documents it: an optional code of 8-20 letters and
// digits, unique in the shop whatever its case (else a random 16); an initial
// amount above zero, here only in the shop's currency (the simulator models no
// Markets); a customer only with write_customers.
function giftCardCreate(ctx: ResolverContext, { input }: Args) {
  requireScopes(ctx, "giftCardCreate");
  const fail = (e: UserError) => ({
    giftCard: null,
    giftCardCode: null,
    userErrors: userErrors("GiftCardUserError", [e]),
  });
  const { shop } = ctx;
  const cards = (shop.giftCards ??= []);
  let code: string;
  if (input.code === undefined || input.code === null) {
    do code = randomBytes(16).toString("hex").slice(0, 16).toUpperCase();
    while (cards.some((g) => g.code === code));
  } else {
    code = String(input.code).trim().toUpperCase();
    if (code.length < 8)
      return fail({
        field: ["input", "code"],
        message: "Code is too short (minimum is 8 characters)",
        code: "TOO_SHORT",
      });
    if (code.length > 20)
      return fail({
        field: ["input", "code"],
        message: "Code is too long (maximum is 20 characters)",
        code: "TOO_LONG",
      });
    if (!/^[A-Z0-9]+$/.test(code))
      return fail({ field: ["input", "code"], message: "Code can only contain letters and numbers", code: "INVALID" });
    if (cards.some((g) => g.code === code))
      return fail({ field: ["input", "code"], message: "Code has already been taken", code: "TAKEN" });
  }
  const money = (input.initialAmount ?? null) as { amount: unknown; currencyCode: string } | null;
  const currency = money ? String(money.currencyCode) : shop.details.currencyCode;
  const raw = money ? money.amount : input.initialValue;
  if (raw === undefined || raw === null)
    return fail({ field: ["input", "initialAmount"], message: "Initial value is missing", code: "MISSING_ARGUMENT" });
  if (currency !== shop.details.currencyCode)
    return fail({
      field: ["input", "initialAmount", "currencyCode"],
      message: "The currency is not enabled for this shop.",
      code: "INVALID",
    });
  const amount = minor(raw, currency);
  if (amount === null || amount <= 0)
    return fail({
      field: ["input", "initialAmount"],
      message: "Initial value must be greater than 0",
      code: "GREATER_THAN",
    });
  let customerId: string | null = null;
  if (input.customerId) {
    requireScopes(ctx, "giftCardCreate", ["write_gift_cards", "write_customers"]);
    const customer = findCustomer(shop, input.customerId);
    if (!customer)
      return fail({ field: ["input", "customerId"], message: "Customer not found", code: "CUSTOMER_NOT_FOUND" });
    customerId = customer.id;
  }
  const card = {
    id: nextId(ctx.state),
    code,
    currency,
    initialValue: amount,
    balance: amount,
    note: input.note ? String(input.note) : null,
    customerId,
    expiresOn: input.expiresOn ? String(input.expiresOn) : null,
    createdAt: ctx.now.toISOString(),
  };
  cards.push(card);
  ctx.changed = true;
  // The full code comes back here only, once.
  return { giftCard: giftCardView(ctx, card), giftCardCode: code, userErrors: [] };
}

// ---- billing ------------------------------------------------------------------

/** The page the merchant approves a charge on, served by the simulator (server.ts). */
export function confirmationUrl(ctx: ResolverContext, s: SubscriptionRec, signature: string) {
  return `${ctx.baseUrl}/shops/${ctx.shop.domain}/admin/charges/${ctx.app.id}/${s.id}/RecurringApplicationCharge/confirm_recurring_application_charge?signature=${signature}`;
}

function appSubscriptionCreate(ctx: ResolverContext, args: Args) {
  const errors: UserError[] = [];
  if (!String(args.name ?? "").trim()) errors.push({ field: ["name"], message: "Name can't be blank" });
  let returnUrl: URL | null = null;
  try {
    returnUrl = new URL(String(args.returnUrl));
    if (!/^https?:$/.test(returnUrl.protocol)) returnUrl = null;
  } catch {
    returnUrl = null;
  }
  if (!returnUrl) errors.push({ field: ["returnUrl"], message: "Return url is invalid" });
  const trialDays = args.trialDays ?? 0;
  if (trialDays < 0) errors.push({ field: ["trialDays"], message: "Trial days must be greater than or equal to 0" });
  const lineItems: SubscriptionRec["lineItems"] = [];
  const items = args.lineItems as Args[];
  if (!items.length) errors.push({ field: ["lineItems"], message: "Line items can't be blank" });
  items.forEach((li, i) => {
    const recurring = li.plan?.appRecurringPricingDetails;
    const usage = li.plan?.appUsagePricingDetails;
    if (!!recurring === !!usage) {
      errors.push({ field: ["lineItems", String(i), "plan"], message: "Plan must have exactly one pricing details" });
      return;
    }
    if (recurring) {
      const price = minor(recurring.price.amount, recurring.price.currencyCode);
      if (price === null || price <= 0) {
        errors.push({
          field: ["lineItems", String(i), "plan", "appRecurringPricingDetails", "price"],
          message: "Price must be greater than 0",
        });
        return;
      }
      if (lineItems.some((x) => x.kind === "recurring"))
        errors.push({ field: ["lineItems"], message: "Only one recurring line item is allowed" });
      lineItems.push({
        id: nextId(ctx.state),
        kind: "recurring",
        price: decimalString(price, recurring.price.currencyCode),
        currency: recurring.price.currencyCode,
        interval: recurring.interval ?? "EVERY_30_DAYS",
      });
    } else {
      const capped = minor(usage.cappedAmount.amount, usage.cappedAmount.currencyCode);
      if (capped === null || capped <= 0) {
        errors.push({
          field: ["lineItems", String(i), "plan", "appUsagePricingDetails", "cappedAmount"],
          message: "Capped amount must be greater than 0",
        });
        return;
      }
      if (!String(usage.terms ?? "").trim())
        errors.push({
          field: ["lineItems", String(i), "plan", "appUsagePricingDetails", "terms"],
          message: "Terms can't be blank",
        });
      lineItems.push({
        id: nextId(ctx.state),
        kind: "usage",
        cappedAmount: decimalString(capped, usage.cappedAmount.currencyCode),
        currency: usage.cappedAmount.currencyCode,
        terms: String(usage.terms),
      });
    }
  });
  const currencies = new Set(lineItems.map((li) => li.currency));
  if (currencies.size > 1) errors.push({ field: ["lineItems"], message: "Line items must all use the same currency" });
  if (errors.length)
    return { appSubscription: null, confirmationUrl: null, userErrors: userErrors("UserError", errors) };
  const s: SubscriptionRec = {
    id: nextId(ctx.state),
    name: String(args.name).trim(),
    status: "PENDING",
    test: Boolean(args.test),
    trialDays,
    returnUrl: returnUrl!.toString(),
    createdAt: ctx.now.toISOString(),
    currentPeriodEnd: null,
    lineItems,
    replacementBehavior: args.replacementBehavior ?? "STANDARD",
  };
  ctx.shop.subscriptions.push(s);
  ctx.changed = true;
  return {
    appSubscription: subscriptionView(ctx, s),
    confirmationUrl: confirmationUrl(ctx, s, randomBytes(16).toString("hex")),
    userErrors: [],
  };
}

function appSubscriptionCancel(ctx: ResolverContext, { id }: Args) {
  const parsed = parseGid(id);
  const s = parsed?.type === "AppSubscription" ? ctx.shop.subscriptions.find((x) => x.id === parsed.id) : undefined;
  if (!s)
    return {
      appSubscription: null,
      userErrors: userErrors("UserError", [{ field: ["id"], message: "Couldn't find RecurringApplicationCharge" }]),
    };
  if (s.status !== "ACTIVE" && s.status !== "PENDING" && s.status !== "FROZEN")
    return {
      appSubscription: null,
      userErrors: userErrors("UserError", [
        { field: ["id"], message: `Cannot cancel a subscription that is ${s.status.toLowerCase()}` },
      ]),
    };
  s.status = "CANCELLED";
  ctx.changed = true;
  ctx.events.push(subscriptionEvent(ctx, s));
  return { appSubscription: subscriptionView(ctx, s), userErrors: [] };
}

/** The app_subscriptions/update webhook body. */
export function subscriptionEvent(ctx: { shop: ShopState; now: Date }, s: SubscriptionRec) {
  const recurring = s.lineItems.find((li) => li.kind === "recurring");
  const usage = s.lineItems.find((li) => li.kind === "usage");
  return {
    topic: "app_subscriptions/update",
    body: JSON.stringify({
      app_subscription: {
        admin_graphql_api_id: gid("AppSubscription", s.id),
        name: s.name,
        status: s.status,
        admin_graphql_api_shop_id: shopGid(ctx.shop),
        created_at: s.createdAt,
        updated_at: ctx.now.toISOString(),
        currency: (recurring ?? usage)?.currency ?? ctx.shop.details.currencyCode,
        capped_amount: usage && usage.kind === "usage" ? usage.cappedAmount : null,
        price: recurring && recurring.kind === "recurring" ? recurring.price : null,
        interval: recurring && recurring.kind === "recurring" ? recurring.interval.toLowerCase() : null,
        plan_handle: null,
      },
    }),
  };
}

export function shopGid(shop: ShopState): string {
  // The same id the shop query answers.
  return String(shopView({ shop } as ResolverContext).id);
}

// ---- web pixel ----------------------------------------------------------------

function parseSettings(settings: unknown): Record<string, unknown> | null {
  if (settings && typeof settings === "object" && !Array.isArray(settings)) return settings as Record<string, unknown>;
  if (typeof settings !== "string") return null;
  try {
    const parsed = JSON.parse(settings) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function pixelSettings(args: Args): { settings?: string; error?: UserError } {
  const parsed = parseSettings(args.webPixel?.settings);
  if (!parsed)
    return {
      error: {
        field: ["webPixel", "settings"],
        message: "Settings must be a JSON object",
        code: "INVALID_CONFIGURATION_JSON",
      },
    };
  const problems = webPixelSettingsProblems(parsed);
  if (problems.length)
    return { error: { field: ["webPixel", "settings"], message: problems.join(" "), code: "INVALID_SETTINGS" } };
  return { settings: JSON.stringify(parsed) };
}

function webPixelCreate(ctx: ResolverContext, args: Args) {
  requireScopes(ctx, "webPixelCreate");
  const fail = (e: UserError) => ({ webPixel: null, userErrors: userErrors("ErrorsWebPixelUserError", [e]) });
  if (ctx.shop.webPixel) return fail({ field: [], message: "Web pixel is taken.", code: "TAKEN" });
  const { settings, error } = pixelSettings(args);
  if (error) return fail(error);
  ctx.shop.webPixel = { id: nextId(ctx.state), settings: settings! };
  ctx.changed = true;
  return { webPixel: webPixelView(ctx, ctx.shop.webPixel), userErrors: [] };
}

function webPixelUpdate(ctx: ResolverContext, args: Args) {
  requireScopes(ctx, "webPixelUpdate");
  const fail = (e: UserError) => ({ webPixel: null, userErrors: userErrors("ErrorsWebPixelUserError", [e]) });
  const pixel = ctx.shop.webPixel;
  if (!pixel || gid("WebPixel", pixel.id) !== args.id)
    return fail({ field: ["id"], message: "Web pixel not found.", code: "NOT_FOUND" });
  const { settings, error } = pixelSettings(args);
  if (error) return fail(error);
  pixel.settings = settings!;
  ctx.changed = true;
  return { webPixel: webPixelView(ctx, pixel), userErrors: [] };
}

function webPixelDelete(ctx: ResolverContext, args: Args) {
  requireScopes(ctx, "webPixelDelete");
  const pixel = ctx.shop.webPixel;
  if (!pixel || gid("WebPixel", pixel.id) !== args.id)
    return {
      deletedWebPixelId: null,
      userErrors: userErrors("ErrorsWebPixelUserError", [
        { field: ["id"], message: "Web pixel not found.", code: "NOT_FOUND" },
      ]),
    };
  ctx.shop.webPixel = null;
  ctx.changed = true;
  return { deletedWebPixelId: args.id, userErrors: [] };
}

// ---- customers ----------------------------------------------------------------

function customerCreate(ctx: ResolverContext, { input }: Args) {
  requireScopes(ctx, "customerCreate");
  const email = String(input.email ?? "")
    .trim()
    .toLowerCase();
  const fail = (e: UserError) => ({ customer: null, userErrors: userErrors("UserError", [e]) });
  if (!email && !input.phone && !input.firstName && !input.lastName)
    return fail({ field: ["email"], message: "A name, phone number, or email address must be present" });
  if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    return fail({ field: ["email"], message: "Email is invalid" });
  if (email && ctx.shop.customers.some((c) => c.email.toLowerCase() === email))
    return fail({ field: ["email"], message: "Email has already been taken" });
  const now = ctx.now.toISOString();
  const customer = {
    id: nextId(ctx.state),
    email,
    firstName: String(input.firstName ?? ""),
    lastName: String(input.lastName ?? ""),
    createdAt: now,
    updatedAt: now,
    numberOfOrders: 0,
    amountSpent: 0,
    tags: (input.tags ?? []) as string[],
  };
  ctx.shop.customers.push(customer);
  ctx.changed = true;
  return { customer: customerView(ctx, customer), userErrors: [] };
}

// ---- Shopify Flow -------------------------------------------------------------

const FLOW_TRIGGERS = flowTriggerDefinitions();

// flowTriggerReceive: the handle must be one of the app's deployed
// flow_trigger extensions and the payload must carry each of its fields.
// Whether a workflow uses the trigger makes no difference to the answer:
// Flow starts the workflows there are, none included. Recorded per shop.
function flowTriggerReceive(ctx: ResolverContext, args: Args) {
  const fail = (e: UserError) => ({ userErrors: userErrors("UserError", [e]) });
  if (args.body != null) return fail({ field: ["body"], message: "Use handle and payload." });
  const trigger = FLOW_TRIGGERS.get(String(args.handle ?? ""));
  if (!trigger) return fail({ field: ["handle"], message: `Invalid handle '${String(args.handle ?? "")}'.` });
  const payload = args.payload;
  if (!payload || typeof payload !== "object" || Array.isArray(payload))
    return fail({ field: ["payload"], message: "Payload must be a JSON object." });
  const missing = trigger.keys.filter((key) => !(key in payload));
  if (missing.length) return fail({ field: ["payload"], message: `Missing field(s): ${missing.join(", ")}.` });
  const unknown = Object.keys(payload).filter((key) => !trigger.keys.includes(key));
  if (unknown.length) return fail({ field: ["payload"], message: `Unknown field(s): ${unknown.join(", ")}.` });
  (ctx.shop.flowTriggers ??= []).push({
    handle: trigger.handle,
    payload: payload as Record<string, unknown>,
    receivedAt: ctx.now.toISOString(),
  });
  ctx.changed = true;
  return { userErrors: [] };
}

export function mutationRoot(ctx: ResolverContext): Record<string, unknown> {
  return {
    discountCodeBasicCreate: (args: Args) => discountCodeBasicCreate(ctx, args),
    discountCodeFreeShippingCreate: (args: Args) => discountCodeFreeShippingCreate(ctx, args),
    discountCodeDelete: (args: Args) => discountCodeDelete(ctx, args),
    discountCodeDeactivate: (args: Args) => discountCodeDeactivate(ctx, args),
    discountRedeemCodeBulkAdd: (args: Args) => discountRedeemCodeBulkAdd(ctx, args),
    storeCreditAccountCredit: (args: Args) => creditOrDebit(ctx, "credit", args),
    giftCardCreate: (args: Args) => giftCardCreate(ctx, args),
    storeCreditAccountDebit: (args: Args) => creditOrDebit(ctx, "debit", args),
    appSubscriptionCreate: (args: Args) => appSubscriptionCreate(ctx, args),
    appSubscriptionCancel: (args: Args) => appSubscriptionCancel(ctx, args),
    webPixelCreate: (args: Args) => webPixelCreate(ctx, args),
    webPixelUpdate: (args: Args) => webPixelUpdate(ctx, args),
    webPixelDelete: (args: Args) => webPixelDelete(ctx, args),
    customerCreate: (args: Args) => customerCreate(ctx, args),
    flowTriggerReceive: (args: Args) => flowTriggerReceive(ctx, args),
  };
}
