import { describe, expect, it } from "vitest";
import { Prisma } from "./generated/sqlite";
import { scopesFromDataModel } from "./shop-db.server";

describe("scopesFromDataModel", () => {
  // The client's runtime data model is trimmed (no isList / isRequired):
  // rows owned through a shop's record must still be reachable, scoped.
  it("scopes the real models owned through a shop's record as children", () => {
    const scopes = scopesFromDataModel(Prisma.dmmf.datamodel.models);
    expect(scopes.get("AffiliateToken")).toEqual({ kind: "child", via: "affiliate" });
    expect(scopes.get("AffiliateSession")).toEqual({ kind: "child", via: "affiliate" });
    expect(scopes.get("CampaignLevel")).toEqual({ kind: "child", via: "campaign" });
    expect(scopes.get("Affiliate")).toEqual({ kind: "shop" });
    expect(scopes.get("Shop")).toEqual({ kind: "self" });
    expect(scopes.get("Job")).toEqual({ kind: "open" });
    expect(scopes.get("RateLimiterFlexible")).toEqual({ kind: "closed" });
  });

  it("with a full data model, only a required to-one relation makes a child", () => {
    const models = [
      { name: "Shop", fields: [{ name: "id", kind: "scalar", type: "String" }] },
      { name: "Owner", fields: [{ name: "shopId", kind: "scalar", type: "String" }] },
      {
        name: "Required",
        fields: [
          { name: "ownerId", kind: "scalar", type: "String", isList: false, isRequired: true },
          {
            name: "owner",
            kind: "object",
            type: "Owner",
            isList: false,
            isRequired: true,
            relationFromFields: ["ownerId"],
          },
        ],
      },
      {
        name: "Optional",
        fields: [
          { name: "ownerId", kind: "scalar", type: "String", isList: false, isRequired: false },
          {
            name: "owner",
            kind: "object",
            type: "Owner",
            isList: false,
            isRequired: false,
            relationFromFields: ["ownerId"],
          },
        ],
      },
    ] as unknown as Parameters<typeof scopesFromDataModel>[0];
    const scopes = scopesFromDataModel(models);
    expect(scopes.get("Required")).toEqual({ kind: "child", via: "owner" });
    expect(scopes.get("Optional")).toEqual({ kind: "closed" });
  });
});
