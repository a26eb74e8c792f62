import { Prisma } from "./generated/sqlite";
import type { Db } from "./client.server";
import { READ_OPERATIONS } from "./prisma-operations";

// A database client that can only see and change one shop's rows. Every route
// gets one from the door (app/door) instead of the raw client, so a query that
// forgets its `shopId` still stays inside the shop, and a write by a bare id
// (`update({ where: { id } })`) touches nothing when the id is another shop's:
// Prisma answers "record not found" exactly as for an id that does not exist.
//
// How each model is scoped is read from the generated client's data model, so
// a new model is scoped the moment it gets a `shopId` column (or a relation to
// a model that has one); a model with neither is refused unless listed below.

export type ShopDb = Db & { readonly $shopId: string };

type Scope =
  | { kind: "shop" } // has a shopId column
  | { kind: "self" } // the Shop table: only the shop's own row
  | { kind: "child"; via: string } // owned through a required relation to a scoped model
  | { kind: "open" } // shared plumbing any code may use (the job queue)
  | { kind: "closed" }; // not reachable through a shop's client

// Models a shop's client may use without a shop filter: the job queue's rows
// are written inside a shop's transactions (an e-mail to send after commit).
const OPEN_MODELS = new Set(["Job"]);

type DmmfModel = (typeof Prisma.dmmf.datamodel.models)[number];

export function scopesFromDataModel(models: readonly DmmfModel[]): Map<string, Scope> {
  const byName = new Map(models.map((m) => [m.name, m]));
  const hasShopId = (m: DmmfModel) => m.fields.some((f) => f.name === "shopId" && f.kind === "scalar");
  const scopes = new Map<string, Scope>();
  for (const model of models) {
    if (model.name === "Shop") scopes.set(model.name, { kind: "self" });
    else if (hasShopId(model)) scopes.set(model.name, { kind: "shop" });
    else if (OPEN_MODELS.has(model.name)) scopes.set(model.name, { kind: "open" });
    else {
      // The owner is a to-one relation held by a column named after it
      // (campaign / campaignId): the runtime data model carries no more.
      const columns = new Set(model.fields.filter((f) => f.kind === "scalar").map((f) => f.name));
      const owner = model.fields.find((f) => {
        if (f.kind !== "object" || !columns.has(`${f.name}Id`)) return false;
        const target = byName.get(f.type);
        return target !== undefined && hasShopId(target);
      });
      scopes.set(model.name, owner ? { kind: "child", via: owner.name } : { kind: "closed" });
    }
  }
  return scopes;
}

const SCOPES = scopesFromDataModel(Prisma.dmmf.datamodel.models);

// Prisma's operation names on a model delegate, by what must be added.
const WHERE_OPS = new Set<string>([
  ...READ_OPERATIONS,
  "update",
  "updateMany",
  "updateManyAndReturn",
  "delete",
  "deleteMany",
  "upsert",
]);
const CREATE_OPS = new Set(["create", "createMany", "createManyAndReturn"]);

type Args = Record<string, unknown>;

export class ShopScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShopScopeError";
  }
}

function scopedWhere(scope: Scope, where: unknown, shopId: string): Args {
  const base = (where ?? {}) as Args;
  const filter =
    scope.kind === "shop"
      ? { shopId }
      : scope.kind === "self"
        ? { id: shopId }
        : scope.kind === "child"
          ? { [scope.via]: { shopId } }
          : null;
  if (!filter) return base;
  // ANDed, not merged: a query that names another shop finds nothing rather
  // than this shop's rows. Unique lookups keep their unique fields on top.
  const and = base.AND === undefined ? [] : Array.isArray(base.AND) ? base.AND : [base.AND];
  return { ...base, AND: [...and, filter] };
}

function scopedCreateData(model: string, scope: Scope, data: unknown, shopId: string): unknown {
  if (Array.isArray(data)) return data.map((row) => scopedCreateData(model, scope, row, shopId));
  const row = { ...((data ?? {}) as Args) };
  if (scope.kind === "shop") {
    // A relation-style `shop: { connect }` and the plain column cannot be
    // mixed in one Prisma input; the column wins and names this shop.
    delete row.shop;
    row.shopId = shopId;
    return row;
  }
  if (scope.kind === "self") throw new ShopScopeError("A shop's client cannot create shops.");
  if (scope.kind === "child") throw childCreate(model, scope.via);
  return row;
}

// A child row (a campaign's level) is created through its owner, as a nested
// write of the owner's create or update, which the owner's scope covers; a
// direct create could name another shop's owner.
function childCreate(model: string, via: string) {
  return new ShopScopeError(`Create ${model} rows through their ${via} (a nested write).`);
}

function refuseShopChange(data: unknown) {
  const rows = Array.isArray(data) ? data : [data];
  for (const row of rows) {
    if (row && typeof row === "object" && ("shopId" in row || "shop" in row)) {
      throw new ShopScopeError("A shop's client cannot move rows to another shop.");
    }
  }
}

const cache = new Map<string, ShopDb>();
const CACHE_LIMIT = 500;

/** The client of one shop; built once per shop and kept (a few hundred at most). */
export function shopDb(base: Db, shopId: string): ShopDb {
  if (!shopId) throw new ShopScopeError("A shop's client needs the shop's id.");
  const key = shopId;
  const hit = cache.get(key);
  if (hit && (hit as unknown as { $base: Db }).$base === base) return hit;
  const client = base.$extends({
    client: { $shopId: shopId, $base: base },
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const scope = SCOPES.get(model) ?? { kind: "closed" };
          if (scope.kind === "open") return query(args);
          if (scope.kind === "closed") throw new ShopScopeError(`${model} is not reachable through a shop's client.`);
          const next = { ...((args ?? {}) as Args) };
          if (WHERE_OPS.has(operation)) next.where = scopedWhere(scope, next.where, shopId);
          if (operation === "update" || operation === "updateMany" || operation === "updateManyAndReturn") {
            refuseShopChange(next.data);
          }
          if (operation === "upsert") {
            refuseShopChange(next.update);
            if (scope.kind === "child") throw childCreate(model, scope.via);
            next.create = scopedCreateData(model, scope, next.create, shopId);
          }
          if (CREATE_OPS.has(operation)) next.data = scopedCreateData(model, scope, next.data, shopId);
          return query(next);
        },
      },
    },
  }) as unknown as ShopDb;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, client);
  return client;
}
