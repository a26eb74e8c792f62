import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from "graphql";

// Shopify's Admin API runs graphql-ruby; graphql-js finds the same mistakes
// but words them differently. The simulator answers in Shopify's shape
// (HTTP 200, `{"errors": [{message, locations, path, extensions: {code}}]}`)
// and, for the mistakes an app makes most, with Shopify's wording and codes,
// so a test can match on what production would say.

export interface ShopifyGraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

const q = (s: string) => s.replace(/^"|"$/g, "");

type Rule = [RegExp, (m: RegExpExecArray) => { message: string; extensions: Record<string, unknown> }];

const RULES: Rule[] = [
  [
    /^Cannot query field "([^"]+)" on type "([^"]+)"\./,
    (m) => ({
      message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
      extensions: { code: "undefinedField", typeName: m[2], fieldName: m[1] },
    }),
  ],
  [
    /^Unknown argument "([^"]+)" on field "([^".]+)\.([^"]+)"\./,
    (m) => ({
      message: `Field '${m[3]}' doesn't accept argument '${m[1]}'`,
      extensions: { code: "argumentNotAccepted", name: m[3], typeName: "Field", argumentName: m[1] },
    }),
  ],
  [
    /^Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required, but it was not provided\./,
    (m) => ({
      message: `Field '${m[1]}' is missing required arguments: ${m[2]}`,
      extensions: { code: "missingRequiredArguments", className: "Field", name: m[1], arguments: m[2] },
    }),
  ],
  [
    /^Variable "\$([^"]+)" is never used(?: in operation "([^"]+)")?\./,
    (m) => ({
      message: `Variable $${m[1]} is declared by ${m[2] ?? "anonymous query"} but not used`,
      extensions: { code: "variableNotUsed", variableName: m[1] },
    }),
  ],
  [
    /^Variable "\$([^"]+)" is not defined(?: by operation "([^"]+)")?\./,
    (m) => ({
      message: `Variable $${m[1]} is used by ${m[2] ?? "anonymous query"} but not declared`,
      extensions: { code: "variableNotDefined", variableName: m[1] },
    }),
  ],
  [
    /^Variable "\$([^"]+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    (m) => {
      const sameBase = m[2]!.replace(/!/g, "") === m[3]!.replace(/!/g, "");
      const kind = sameBase ? "Nullability mismatch" : "Type mismatch";
      return {
        message: `${kind} on variable $${m[1]} (${m[2]} / ${m[3]})`,
        extensions: { code: "variableMismatch", variableName: m[1], typeName: m[2], errorMessage: kind },
      };
    },
  ],
  [
    /^Unknown type "([^"]+)"\./,
    (m) => ({
      message: `No such type ${m[1]}, so it can't be a fragment condition`,
      extensions: { code: "undefinedType", typeName: m[1] },
    }),
  ],
  [
    /^Field "([^"]+)" of type "([^"]+)" must have a selection of subfields\./,
    (m) => ({
      message: `Field '${m[1]}' returns ${m[2]!.replace(/[[\]!]/g, "")} but has no selections. Did you mean '${m[1]} { ... }'?`,
      extensions: { code: "selectionMismatch", nodeName: `field '${m[1]}'`, typeName: m[2]!.replace(/[[\]!]/g, "") },
    }),
  ],
  [
    /^Field "([^"]+)" must not have a selection since type "([^"]+)" has no subfields\./,
    (m) => ({
      message: `Selections can't be made on scalars (field '${m[1]}' returns ${m[2]!.replace(/[[\]!]/g, "")} but has selections)`,
      extensions: { code: "selectionMismatch", nodeName: `field '${m[1]}'`, typeName: m[2]!.replace(/[[\]!]/g, "") },
    }),
  ],
  [
    /^(?:Int|Float|String|Boolean|ID) cannot represent [^:]*: (.+)$|^Expected value of type "([^"]+)", found (.+?)(?:;.*)?$|^Enum "([^"]+)" cannot represent non-enum value: (.+?)\./,
    (m) => {
      const value = m[1] ?? m[3] ?? m[5] ?? "";
      return {
        message: `Argument has an invalid value (${value}). Expected type '${m[2] ?? m[4] ?? "the argument's type"}'.`,
        extensions: { code: "argumentLiteralsIncompatible", typeName: "Argument" },
      };
    },
  ],
];

/** Path segments the way Shopify names them: "query Name", fields, "... on Type". */
export function astPath(document: DocumentNode, target: ASTNode | undefined): string[] | undefined {
  if (!target) return undefined;
  let found: string[] | undefined;
  visit(document, {
    enter(node, _key, _parent, _path, ancestors) {
      if (found) return false;
      if (node !== target) return undefined;
      const chain = [...ancestors, node].filter((a): a is ASTNode => !Array.isArray(a) && "kind" in (a as object));
      found = chain.flatMap((a): string[] => {
        switch (a.kind) {
          case Kind.OPERATION_DEFINITION:
            return [a.name ? `${a.operation} ${a.name.value}` : a.operation];
          case Kind.FRAGMENT_DEFINITION:
            return [`fragment ${a.name.value}`];
          case Kind.FIELD:
            return [a.name.value];
          case Kind.INLINE_FRAGMENT:
            return [a.typeCondition ? `... on ${a.typeCondition.name.value}` : "..."];
          case Kind.FRAGMENT_SPREAD:
            return [`... ${a.name.value}`];
          case Kind.ARGUMENT:
            return [a.name.value];
          case Kind.VARIABLE_DEFINITION:
            return [`$${a.variable.name.value}`];
          default:
            return [];
        }
      });
      return false;
    },
  });
  return found;
}

function locationsOf(error: GraphQLError) {
  return error.locations?.map((l) => ({ line: l.line, column: l.column }));
}

/** A document-validation error (graphql-js `validate`) in Shopify's words. */
export function shopifyValidationError(error: GraphQLError, document: DocumentNode): ShopifyGraphqlError {
  const out: ShopifyGraphqlError = { message: error.message, locations: locationsOf(error) };
  for (const [pattern, map] of RULES) {
    const m = pattern.exec(error.message);
    if (!m) continue;
    const mapped = map(m);
    out.message = mapped.message;
    out.extensions = mapped.extensions;
    break;
  }
  const path = astPath(document, error.nodes?.[error.nodes.length - 1]);
  if (path?.length) out.path = path;
  return out;
}

/** A syntax error, as graphql-ruby's parser reports one. */
export function shopifySyntaxError(error: GraphQLError): ShopifyGraphqlError {
  const at = error.locations?.[0];
  const detail = error.message.replace(/^Syntax Error: /, "");
  return {
    message: at ? `Parse error: ${detail} at [${at.line}, ${at.column}]` : `Parse error: ${detail}`,
    locations: locationsOf(error),
  };
}

/**
 * A variable whose value does not fit its declared type (graphql-js
 * getVariableValues), as Shopify reports it: the value and each problem.
 */
export function shopifyVariableError(error: GraphQLError): ShopifyGraphqlError {
  const m = /^Variable "\$([^"]+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s.exec(error.message);
  const m2 = m
    ? null
    : /^Variable "\$([^"]+)" of (?:required|non-null) type "([^"]+)" (?:was not provided|must not be null)\./.exec(
        error.message,
      );
  if (m) {
    const path = (m[3] ?? "")
      .split(/[.[\]]/)
      .filter(Boolean)
      .slice(1)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    return {
      message: `Variable $${m[1]} of type ${variableType(error)} was provided invalid value${path.length ? ` for ${path.join(".")}` : ""} (${m[4]})`,
      locations: locationsOf(error),
      extensions: { code: "INVALID_VARIABLE", value: safeParse(m[2]!), problems: [{ path, explanation: m[4] }] },
    };
  }
  if (m2) {
    return {
      message: `Variable $${m2[1]} of type ${m2[2]} was provided invalid value`,
      locations: locationsOf(error),
      extensions: {
        code: "INVALID_VARIABLE",
        value: null,
        problems: [{ path: [], explanation: "Expected value to not be null" }],
      },
    };
  }
  return { message: error.message, locations: locationsOf(error), extensions: { code: "INVALID_VARIABLE" } };
}

function variableType(error: GraphQLError): string {
  const node = error.nodes?.[0];
  if (node && node.kind === Kind.VARIABLE_DEFINITION) return printType(node.type);
  return "its declared type";
}

function printType(node: import("graphql").TypeNode): string {
  if (node.kind === Kind.NON_NULL_TYPE) return `${printType(node.type)}!`;
  if (node.kind === Kind.LIST_TYPE) return `[${printType(node.type)}]`;
  return node.name.value;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return q(text);
  }
}

export const RATE_LIMITS_DOC = "https://shopify.dev/api/usage/rate-limits";

/** An error raised while resolving a field, in Shopify's shape. */
export function shopifyExecutionError(error: GraphQLError): ShopifyGraphqlError {
  const out: ShopifyGraphqlError = { message: error.message };
  const locations = locationsOf(error);
  if (locations?.length) out.locations = locations;
  if (error.path) out.path = [...error.path];
  if (error.extensions && Object.keys(error.extensions).length) out.extensions = { ...error.extensions };
  return out;
}
