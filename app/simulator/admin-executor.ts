import {
  execute,
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  isNonNullType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from "graphql";
import { getVariableValues } from "graphql/execution/values";
import { argumentError, parseGid, type ResolverContext } from "./admin-common";
import { mutationRoot } from "./admin-mutations";
import { queryRoot } from "./admin-queries";
import {
  RATE_LIMITS_DOC,
  shopifyExecutionError,
  shopifySyntaxError,
  shopifyValidationError,
  shopifyVariableError,
  type ShopifyGraphqlError,
} from "./graphql-errors";
import {
  actualQueryCost,
  CostBucket,
  operationOf,
  requestedQueryCost,
  SINGLE_QUERY_MAX_COST,
  type ThrottleStatus,
} from "./query-cost";

// One Admin GraphQL request to the simulated store, the way Shopify handles
// it: the document is parsed and validated against Shopify's own schema
// (any mistake: HTTP 200 with `errors` and no data), the variables are
// checked against their declared types, the requested cost is taken from the
// shop's leaky bucket (MAX_COST_EXCEEDED, THROTTLED), and only then does it
// run against the store's state. Every answer carries extensions.cost.

export interface AdminRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface AdminOutcome {
  status: number;
  body: Record<string, unknown>;
  // For the simulator's log and tests.
  operation: string;
  kind: "query" | "mutation" | "invalid";
  validated: boolean;
  throttled: boolean;
  errors: ShopifyGraphqlError[];
  cost: { requested: number; actual: number | null } | null;
}

const MAX_PAGE = 250;

function numericId(item: unknown, fallback: number): number {
  const id = (item as { id?: unknown })?.id;
  const parsed = parseGid(id);
  return parsed ? Number(parsed.id) : fallback;
}

const SORT_FIELDS: Record<string, string> = {
  TITLE: "title",
  NAME: "displayName",
  CREATED_AT: "createdAt",
  UPDATED_AT: "updatedAt",
  PUBLISHED_AT: "publishedAt",
  VENDOR: "vendor",
  PRODUCT_TYPE: "productType",
  CODE: "code",
};

type Keyed = { item: unknown; value: string | number; id: number };

function cursorOf(k: Keyed) {
  return Buffer.from(JSON.stringify({ last_id: k.id, last_value: k.value })).toString("base64url");
}

function readCursor(cursor: unknown): { last_id: number; last_value: string | number } {
  try {
    const parsed = JSON.parse(Buffer.from(String(cursor), "base64url").toString("utf8")) as {
      last_id: number;
      last_value: string | number;
    };
    if (typeof parsed.last_id !== "number") throw new Error("bad cursor");
    return parsed;
  } catch {
    throw argumentError("Invalid cursor for current pagination sort.", "BAD_REQUEST");
  }
}

const compare = (a: { value: string | number; id: number }, b: { value: string | number; id: number }) =>
  a.value < b.value ? -1 : a.value > b.value ? 1 : a.id - b.id;

/** Pages a whole list the way Shopify pages a connection (first/after, last/before, reverse, sortKey). */
export function paginate(items: unknown[], args: Record<string, any>) {
  const { first, last, after, before } = args;
  if (first == null && last == null) throw argumentError("you must provide one of first or last", "BAD_REQUEST");
  if (first != null && last != null)
    throw argumentError("Passing both `first` and `last` is not supported.", "BAD_REQUEST");
  const size = (first ?? last) as number;
  if (size < 0)
    throw argumentError(`\`${first != null ? "first" : "last"}\` must be a positive number.`, "BAD_REQUEST");
  if (size > MAX_PAGE)
    throw argumentError(`The maximum number of items that can be requested is ${MAX_PAGE}.`, "MAX_PAGE_SIZE_EXCEEDED");
  const field = SORT_FIELDS[String(args.sortKey ?? "ID")];
  const keyed: Keyed[] = items.map((item, i) => {
    const raw = field ? (item as Record<string, unknown>)[field] : undefined;
    const id = numericId(item, i);
    return { item, id, value: typeof raw === "string" || typeof raw === "number" ? raw : id };
  });
  // By the sort key's field, then by id (Shopify's default order is by id).
  keyed.sort(compare);
  if (args.reverse) keyed.reverse();
  const direction = args.reverse ? -1 : 1;
  let start = 0;
  let end = keyed.length;
  if (after != null) {
    const c = readCursor(after);
    const pos = { value: c.last_value, id: c.last_id };
    const i = keyed.findIndex((k) => direction * compare(k, pos) > 0);
    start = i < 0 ? keyed.length : i;
  }
  if (before != null) {
    const c = readCursor(before);
    const pos = { value: c.last_value, id: c.last_id };
    const i = keyed.findIndex((k) => direction * compare(k, pos) >= 0);
    end = i < 0 ? keyed.length : i;
  }
  let window = keyed.slice(start, Math.max(start, end));
  let hasNextPage = end < keyed.length;
  let hasPreviousPage = start > 0;
  if (first != null) {
    hasNextPage = hasNextPage || window.length > first;
    window = window.slice(0, first);
  } else {
    hasPreviousPage = hasPreviousPage || window.length > last;
    window = window.slice(Math.max(0, window.length - last));
  }
  return {
    edges: window.map((k) => ({ cursor: cursorOf(k), node: k.item })),
    nodes: window.map((k) => k.item),
    pageInfo: {
      __typename: "PageInfo",
      hasNextPage,
      hasPreviousPage,
      startCursor: window[0] ? cursorOf(window[0]) : null,
      endCursor: window.at(-1) ? cursorOf(window.at(-1)!) : null,
    },
  };
}

/**
 * Resolves a field from the view objects (admin-views.ts): functions are
 * called with the field's arguments, lists on *Connection fields are paged.
 * A field the simulator does not model answers null, an empty list or an
 * empty connection where the schema allows it, else an error naming it.
 */
const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (source, args, ctx, info) => {
  const raw = (source as Record<string, unknown> | null)?.[info.fieldName];
  const value = typeof raw === "function" ? (raw as (a: unknown) => unknown).call(source, args) : raw;
  const named = getNamedType(info.returnType);
  const isConnection = named.name.endsWith("Connection");
  if (value === undefined) {
    const where = `${info.parentType.name}.${info.fieldName}`;
    const isRoot = info.parentType === info.schema.getQueryType() || info.parentType === info.schema.getMutationType();
    if (!isRoot) {
      if (isConnection) return paginate([], args);
      if (isListType(getNullableType(info.returnType))) return [];
      if (!isNonNullType(info.returnType)) {
        ctx.unmodelled.push(where);
        return null;
      }
    }
    ctx.unmodelled.push(where);
    throw new GraphQLError(`The store simulator does not model ${where}.`, {
      extensions: { code: "SIMULATOR_UNSUPPORTED" },
    });
  }
  if (isConnection && Array.isArray(value)) return paginate(value, args);
  return value;
};

export interface RunOptions {
  schema: GraphQLSchema;
  ctx: ResolverContext;
  bucket: CostBucket;
  // Answer THROTTLED whatever the bucket holds (a test asking for it).
  forceThrottle?: boolean;
}

function outcome(partial: Partial<AdminOutcome> & Pick<AdminOutcome, "body">): AdminOutcome {
  return {
    status: 200,
    operation: "(unnamed)",
    kind: "invalid",
    validated: false,
    throttled: false,
    errors: (partial.body.errors as ShopifyGraphqlError[]) ?? [],
    cost: null,
    ...partial,
  };
}

function costExtension(requested: number, actual: number | null, status: ThrottleStatus) {
  return { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: status } };
}

export function runAdminRequest(body: AdminRequestBody, options: RunOptions): AdminOutcome {
  const { schema, ctx, bucket } = options;
  if (typeof body.query !== "string" || !body.query.trim())
    return outcome({ status: 400, body: { errors: { query: "Required parameter missing or invalid" } } });
  if (
    body.variables !== undefined &&
    body.variables !== null &&
    (typeof body.variables !== "object" || Array.isArray(body.variables))
  )
    return outcome({ status: 400, body: { errors: { variables: "Required parameter missing or invalid" } } });
  const variables = (body.variables ?? {}) as Record<string, unknown>;
  const operationName = typeof body.operationName === "string" ? body.operationName : null;

  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (error) {
    const e = shopifySyntaxError(error as GraphQLError);
    return outcome({ body: { errors: [e] } });
  }
  const op = operationOf(document, operationName);
  const label = op ? `${op.operation} ${op.name?.value ?? "(unnamed)"}` : "(no operation)";
  const invalid = validate(schema, document).map((e) => shopifyValidationError(e, document));
  if (invalid.length) return outcome({ body: { errors: invalid }, operation: label });
  if (!op) {
    const message = operationName
      ? `No operation named "${operationName}"`
      : "An operation name is required when sending a document with multiple operations.";
    return outcome({ body: { errors: [{ message }] }, operation: label });
  }
  if (op.operation === "subscription")
    return outcome({
      body: { errors: [{ message: "Subscriptions are not supported by the Admin API." }] },
      operation: label,
    });
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], variables, { maxErrors: 50 });
  if (coerced.errors) {
    return outcome({ body: { errors: coerced.errors.map(shopifyVariableError) }, operation: label });
  }

  const kind = op.operation;
  const requested = requestedQueryCost(schema, document, op, variables);
  const base = { operation: label, kind, validated: true } as const;
  if (requested > SINGLE_QUERY_MAX_COST) {
    const error = {
      message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}). See ${RATE_LIMITS_DOC} for how the cost of a query is calculated; bulk operations query larger amounts of data.`,
      extensions: {
        code: "MAX_COST_EXCEEDED",
        cost: requested,
        maxCost: SINGLE_QUERY_MAX_COST,
        documentation: RATE_LIMITS_DOC,
      },
    };
    return outcome({
      ...base,
      body: { errors: [error], extensions: costExtension(requested, null, bucket.status()) },
      cost: { requested, actual: null },
    });
  }
  if (options.forceThrottle || !bucket.take(requested)) {
    const error = { message: "Throttled", extensions: { code: "THROTTLED", documentation: RATE_LIMITS_DOC } };
    return outcome({
      ...base,
      throttled: true,
      body: { errors: [error], extensions: costExtension(requested, null, bucket.status()) },
      cost: { requested, actual: null },
    });
  }

  const root = kind === "mutation" ? mutationRoot(ctx) : queryRoot(ctx);
  const result = execute({
    schema,
    document,
    rootValue: root,
    contextValue: ctx,
    variableValues: variables,
    operationName: op.name?.value,
    fieldResolver,
  });
  if (result instanceof Promise) throw new Error("the simulator's resolvers are synchronous");
  const actual = Math.min(requested, actualQueryCost(schema, document, op, variables, result.data ?? null));
  bucket.refund(requested - actual);
  const errors = (result.errors ?? []).map(shopifyExecutionError);
  const extensions: Record<string, unknown> = costExtension(requested, actual, bucket.status());
  if (ctx.searchWarnings.length) extensions.search = ctx.searchWarnings;
  const responseBody: Record<string, unknown> = { data: result.data ?? null };
  if (errors.length) responseBody.errors = errors;
  responseBody.extensions = extensions;
  return outcome({ ...base, body: responseBody, errors, cost: { requested, actual } });
}
