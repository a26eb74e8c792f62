import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasQuadraticFieldMap, patchFluentFieldMap } from "./prisma-runtime-patch";

// The shape of the fluent API's field map in Prisma 6.19's minified runtime.
const RUNTIME =
  '"use strict";var x=1;function Zi(e,t,r){let a=e._runtimeDataModel.models[t].fields.reduce((l,c)=>({...l,[c.name]:c}),{});return g=>a[g].type}module.exports={Zi};';

function load(source: string) {
  const module = { exports: {} as { Zi: (e: unknown, t: string) => (g: string) => string } };
  new Function("module", source)(module);
  return module.exports.Zi;
}

describe("the Prisma runtime's fluent field map", () => {
  const client = {
    _runtimeDataModel: {
      models: {
        Order: {
          fields: [
            { name: "id", type: "String" },
            { name: "affiliate", type: "Affiliate" },
          ],
        },
      },
    },
  };

  it("is built once per model and answers what the original answered", () => {
    const patched = patchFluentFieldMap(RUNTIME);
    expect(hasQuadraticFieldMap(RUNTIME)).toBe(true);
    expect(hasQuadraticFieldMap(patched)).toBe(false);
    for (const source of [RUNTIME, patched]) {
      const fieldType = load(source)(client, "Order");
      expect([fieldType("id"), fieldType("affiliate")]).toEqual(["String", "Affiliate"]);
    }
    // Built once: a field added to the model afterwards is not seen by the patched runtime.
    const zi = load(patched);
    zi(client, "Order");
    client._runtimeDataModel.models.Order.fields.push({ name: "late", type: "Int" });
    expect(() => zi(client, "Order")("late")).toThrow();
    expect(load(RUNTIME)(client, "Order")("late")).toBe("Int");
  });

  it("is patched once, however often generate runs", () => {
    const once = patchFluentFieldMap(RUNTIME);
    expect(patchFluentFieldMap(once)).toBe(once);
  });

  it.each([
    ["absent (a runtime of another version)", RUNTIME.replace("fields.reduce", "fields.map")],
    ["there twice", RUNTIME + RUNTIME.replace('"use strict";', "")],
  ])("stops generate when the map is %s", (_, source) => {
    expect(() => patchFluentFieldMap(source)).toThrow(/ADR 066/);
  });

  it.each(["sqlite", "postgresql"])("is patched in the generated %s client", (provider) => {
    const runtime = path.join(__dirname, "../db/generated", provider, "runtime/client.js");
    const source = readFileSync(runtime, "utf8");
    expect(hasQuadraticFieldMap(source)).toBe(false);
    expect(source).toContain("__fieldsByNameOfModel.get(m)");
  });
});
