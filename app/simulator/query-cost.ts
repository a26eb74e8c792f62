import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isListType,
  isNonNullType,
  Kind,
  typeFromAST,
  valueFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

// Shopify's calculated query cost, as its rate-limit documentation states it:
// a scalar or enum costs 0, an object 1, a connection 2 plus its page size
// times the cost of one item, an interface or union the most expensive of
// its possible selections, and a mutation 10. The requested cost is computed
// from the document before it runs (page sizes from first/last); the actual
// cost from what it returned. A single query may not request more than 1,000.
// Shopify adds per-field exceptions the schema does not publish; the
// simulator does not know them.

export const MUTATION_COST = 10;
export const SINGLE_QUERY_MAX_COST = 1000;

type Vars = Record<string, unknown>;

interface CostContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Vars;
}

const isConnection = (type: GraphQLOutputType) => getNamedType(type).name.endsWith("Connection");

function argValues(field: GraphQLField<unknown, unknown>, node: import("graphql").FieldNode, variables: Vars) {
  const out: Record<string, unknown> = {};
  for (const arg of node.arguments ?? []) {
    const def = field.args.find((a) => a.name === arg.name.value);
    if (def) out[arg.name.value] = valueFromAST(arg.value, def.type, variables);
  }
  return out;
}

function pageSize(args: Record<string, unknown>): number {
  const n = Number(args.first ?? args.last ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * Cost of a selection set on a type. With `data`, the actual cost of the
 * values returned (null objects cost nothing, connections count the items
 * they returned); without, the requested cost.
 */
function selectionCost(
  ctx: CostContext,
  parent: GraphQLCompositeType,
  set: SelectionSetNode | undefined,
  data?: unknown,
  actual = false,
): number {
  if (!set) return 0;
  let fields = 0;
  // Fragments on different concrete types never all apply: the most expensive counts.
  const fragmentCosts: number[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith("__")) continue;
      if (!("getFields" in parent)) continue;
      const field = parent.getFields()[sel.name.value];
      if (!field) continue;
      const key = sel.alias?.value ?? sel.name.value;
      const value = actual ? (data as Record<string, unknown> | null | undefined)?.[key] : undefined;
      fields += fieldCost(ctx, field, sel, value, actual);
    } else {
      const set2 = sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : ctx.fragments[sel.name.value]?.selectionSet;
      const condition =
        sel.kind === Kind.INLINE_FRAGMENT
          ? sel.typeCondition?.name.value
          : ctx.fragments[sel.name.value]?.typeCondition.name.value;
      const type = (condition ? ctx.schema.getType(condition) : parent) as GraphQLCompositeType | undefined;
      if (!type || !isCompositeType(type)) continue;
      if (actual) {
        // Only the fragment matching the returned object's type applies: known
        // by __typename when selected, else by whether its fields came back.
        const typename = (data as { __typename?: string } | null | undefined)?.__typename;
        if (typename ? !isAbstractType(type) && type.name !== typename : !touches(set2, data)) continue;
      }
      fragmentCosts.push(selectionCost(ctx, type, set2, data, actual));
    }
  }
  return fields + (fragmentCosts.length ? Math.max(...fragmentCosts) : 0);
}

function touches(set: SelectionSetNode | undefined, data: unknown): boolean {
  if (!set || !data || typeof data !== "object") return false;
  return set.selections.some(
    (s) => s.kind === Kind.FIELD && (data as Record<string, unknown>)[s.alias?.value ?? s.name.value] !== undefined,
  );
}

function fieldCost(
  ctx: CostContext,
  field: GraphQLField<unknown, unknown>,
  node: import("graphql").FieldNode,
  value: unknown,
  actual: boolean,
): number {
  const named = getNamedType(field.type);
  if (!isCompositeType(named)) return 0;
  if (actual && (value === null || value === undefined)) return 0;
  if (isConnection(field.type)) {
    const items = actual ? connectionItems(value) : null;
    const itemCost = (item: unknown) => connectionItemCost(ctx, named, node.selectionSet, item, actual);
    if (items) return 2 + items.reduce<number>((s, item) => s + itemCost(item), 0);
    return 2 + pageSize(argValues(field, node, ctx.variables)) * itemCost(undefined);
  }
  let list = field.type;
  if (isNonNullType(list)) list = list.ofType;
  if (isListType(list)) {
    if (actual) {
      const arr = Array.isArray(value) ? value : [];
      return arr.reduce<number>(
        (s, item) => s + (item == null ? 0 : 1 + selectionCost(ctx, named, node.selectionSet, item, true)),
        0,
      );
    }
    // A list of objects is sized by the ids asked for (nodes(ids:)), else counted once.
    const args = argValues(field, node, ctx.variables);
    const n = Array.isArray(args.ids) ? args.ids.length : 1;
    return n * (1 + selectionCost(ctx, named, node.selectionSet));
  }
  return 1 + selectionCost(ctx, named, node.selectionSet, value, actual);
}

function connectionItems(value: unknown): unknown[] | null {
  if (!value || typeof value !== "object") return null;
  const v = value as { edges?: { node?: unknown }[]; nodes?: unknown[] };
  if (Array.isArray(v.nodes)) return v.nodes;
  if (Array.isArray(v.edges)) return v.edges.map((e) => e?.node);
  return [];
}

/** One item of a connection: the cost of the node as selected through `edges { node }` or `nodes`. */
function connectionItemCost(
  ctx: CostContext,
  connection: GraphQLCompositeType,
  set: SelectionSetNode | undefined,
  item: unknown,
  actual: boolean,
): number {
  if (!set || !("getFields" in connection)) return 1;
  const fields = connection.getFields();
  let best = 0;
  for (const sel of set.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    if (sel.name.value === "nodes" && fields.nodes) {
      const nodeType = getNamedType(fields.nodes.type) as GraphQLCompositeType;
      best = Math.max(best, 1 + selectionCost(ctx, nodeType, sel.selectionSet, item, actual));
    } else if (sel.name.value === "edges" && fields.edges) {
      const edgeType = getNamedType(fields.edges.type) as GraphQLCompositeType;
      const nodeSel = sel.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === "node");
      const nodeField = "getFields" in edgeType ? edgeType.getFields().node : undefined;
      if (nodeSel && nodeSel.kind === Kind.FIELD && nodeField) {
        const nodeType = getNamedType(nodeField.type) as GraphQLCompositeType;
        best = Math.max(best, 1 + selectionCost(ctx, nodeType, nodeSel.selectionSet, item, actual));
      } else best = Math.max(best, 1);
    }
  }
  return best || 1;
}

function rootCost(ctx: CostContext, op: OperationDefinitionNode, data?: unknown, actual = false): number {
  const root = op.operation === "mutation" ? ctx.schema.getMutationType() : ctx.schema.getQueryType();
  if (!root) return 0;
  if (op.operation === "mutation") {
    // Each mutation costs 10, whatever it selects.
    return (
      op.selectionSet.selections.filter((s) => s.kind === Kind.FIELD && !s.name.value.startsWith("__")).length *
      MUTATION_COST
    );
  }
  return selectionCost(ctx, root, op.selectionSet, data, actual);
}

export function operationOf(document: DocumentNode, operationName?: string | null) {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
}

function context(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Vars,
  op: OperationDefinitionNode,
): CostContext {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  // Declared defaults count as if passed.
  const withDefaults = { ...variables };
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (withDefaults[name] === undefined && v.defaultValue) {
      const type = typeFromAST(schema, v.type as import("graphql").NamedTypeNode);
      if (type) withDefaults[name] = valueFromAST(v.defaultValue, type as import("graphql").GraphQLInputType);
    }
  }
  return { schema, fragments, variables: withDefaults };
}

export function requestedQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  op: OperationDefinitionNode,
  variables: Vars,
): number {
  return rootCost(context(schema, document, variables, op), op);
}

export function actualQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  op: OperationDefinitionNode,
  variables: Vars,
  data: unknown,
): number {
  return rootCost(context(schema, document, variables, op), op, data, true);
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * The leaky bucket of one app on one shop: before a query runs the bucket
 * must hold its requested cost; afterwards the difference to the actual cost
 * is refunded. Standard plan figures: 2,000 points, 100 a second.
 */
export class CostBucket {
  maximum: number;
  restoreRate: number;
  private available: number;
  private at: number;

  constructor(options: { maximum?: number; restoreRate?: number; now?: number } = {}) {
    this.maximum = options.maximum ?? 2000;
    this.restoreRate = options.restoreRate ?? 100;
    this.available = this.maximum;
    this.at = options.now ?? Date.now();
  }

  private refill(now: number) {
    this.available = Math.min(this.maximum, this.available + ((now - this.at) / 1000) * this.restoreRate);
    this.at = now;
  }

  /** Takes the requested cost, or answers false (throttled) and takes nothing. */
  take(cost: number, now = Date.now()): boolean {
    this.refill(now);
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }

  refund(points: number, now = Date.now()) {
    this.refill(now);
    this.available = Math.min(this.maximum, this.available + Math.max(0, points));
  }

  /** Sets what is left now (tests drain the bucket to see the app wait). */
  set(available: number, now = Date.now()) {
    this.available = Math.max(0, Math.min(this.maximum, available));
    this.at = now;
  }

  status(now = Date.now()): ThrottleStatus {
    this.refill(now);
    return {
      maximumAvailable: this.maximum,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }
}
