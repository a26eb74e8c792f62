/**
 * A model delegate (`db.shop`) whose named methods go through `wrap`; every
 * other property is the delegate's own. The reads the worker remembers
 * (memo-reads) and the shop row a read-only request answers (shop-row-reads)
 * are built on it.
 */
export function interceptMethods(
  delegate: object,
  methods: ReadonlySet<string>,
  wrap: (call: (args?: unknown) => unknown, method: string) => (args?: unknown) => unknown,
): object {
  return new Proxy(delegate, {
    get(target, method) {
      const fn: unknown = Reflect.get(target, method, target);
      if (typeof fn !== "function") return fn;
      const call = (fn as (args?: unknown) => unknown).bind(target);
      if (typeof method !== "string" || !methods.has(method)) return call;
      return wrap(call, method);
    },
  });
}
