// One change to the Prisma client's runtime, made where `prisma generate`
// writes its copy (app/db/generated/<provider>/runtime/client.js): see
// ADR 066.
//
// Every property access of findUnique, findFirst, create, update, upsert
// and delete (`db.order.findUnique`) builds a map of the model's fields by
// name for the fluent API (`.affiliate()` chained on the promise), with an
// object spread per field: quadratic in the model's fields, about 25 µs for
// Order on every call, whether or not anything is chained. In the orders
// bench that was a tenth of the job worker's CPU. The map is the same for
// every call of a model, so it is built once per model, linearly, and kept.
// (Prisma fixed this upstream in 7.x, after 7.9; this project stays on 6.19,
// ADR 033.)

const QUADRATIC_FIELD_MAP =
  /let (\w+)=(\w+)\._runtimeDataModel\.models\[(\w+)\]\.fields\.reduce\(\((\w+),(\w+)\)=>\(\{\.\.\.\4,\[\5\.name\]:\5\}\),\{\}\);/g;

const CACHE = "__fieldsByNameOfModel";
const MARK = `var ${CACHE}=new WeakMap();`;

/** The runtime's source with the field map built once per model; throws when the runtime is not the one this expects. */
export function patchFluentFieldMap(source: string): string {
  if (source.includes(MARK)) return source;
  const found = source.match(QUADRATIC_FIELD_MAP) ?? [];
  if (found.length !== 1) {
    throw new Error(
      `prisma-runtime-patch: expected the fluent field map once in the Prisma runtime, found it ${found.length} times; ` +
        "a new Prisma version? See ADR 066.",
    );
  }
  const patched = source.replace(
    QUADRATIC_FIELD_MAP,
    (_, name: string, client: string, model: string) =>
      `let ${name}=(m=>{let v=${CACHE}.get(m);if(!v){v=Object.fromEntries(m.fields.map(f=>[f.name,f]));${CACHE}.set(m,v)}return v})(${client}._runtimeDataModel.models[${model}]);`,
  );
  // The runtime is a CommonJS file in strict mode: the cache goes right after the directive.
  const directive = '"use strict";';
  const at = patched.indexOf(directive);
  if (at < 0) throw new Error('prisma-runtime-patch: no "use strict" directive in the Prisma runtime. See ADR 066.');
  return patched.slice(0, at + directive.length) + MARK + patched.slice(at + directive.length);
}

/** Whether a runtime still builds the quadratic map (a generate that skipped the patch). */
export function hasQuadraticFieldMap(source: string): boolean {
  return new RegExp(QUADRATIC_FIELD_MAP.source).test(source);
}
