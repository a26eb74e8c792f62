// A database client that notes what goes through it, for tests that check
// what a write step reads (a plan job's write must not read what its plan did).

/** The client, noting each statement sent through it: the SQL of a raw one, `model.method` of a model call. */
export function recordingStatements<C extends object>(client: C, seen: string[]): C {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof prop === "string" && prop.startsWith("$") && typeof value === "function")
        return (...args: unknown[]) => {
          if (typeof args[0] === "string") seen.push(args[0]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      if (typeof prop === "string" && /^[a-z]/.test(prop) && value && typeof value === "object")
        return new Proxy(value, {
          get: (model, method) => {
            const fn: unknown = Reflect.get(model, method);
            if (typeof fn !== "function") return fn;
            return (...args: unknown[]) => {
              seen.push(`${prop}.${String(method)}`);
              return (fn as (...a: unknown[]) => unknown).apply(model, args);
            };
          },
        });
      return value;
    },
  });
}
