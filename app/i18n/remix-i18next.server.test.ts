import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { LANGUAGES, PSEUDO_LANGUAGE } from "./language-table";
import { matchedRouteNamespaces, pageLanguageDetector } from "./remix-i18next.server";

const request = () => new Request("https://app.example/admin/dashboard", { headers: { "accept-language": "de-DE" } });

describe("pageLanguageDetector", () => {
  it("keeps every tag of the table (and the pseudo-locale's) that the app's rule finds", async () => {
    const changed: string[] = [];
    for (const { tag } of [...LANGUAGES, PSEUDO_LANGUAGE]) {
      const found = await pageLanguageDetector(async () => tag).getLocale(request());
      if (found !== tag) changed.push(`${tag} became ${found}`);
    }
    expect(changed).toEqual([]);
  });

  it.each([
    ["nothing found", null],
    ["a tag the app does not ship", "tlh"],
  ])("answers English for %s, whatever the browser asks for", async (_name, found) => {
    await expect(pageLanguageDetector(async () => found).getLocale(request())).resolves.toBe("en");
  });
});

describe("matchedRouteNamespaces", () => {
  it("reads handle.i18n of the matched routes only, not of every module Remix loaded", () => {
    const route = (id: string) => ({ route: { id } });
    const context = {
      staticHandlerContext: { matches: [route("root"), route("routes/$role"), route("routes/$role.payouts._index")] },
      routeModules: {
        root: { handle: { i18n: ["Global"] } },
        "routes/$role": { handle: { i18n: ["Global", "TopMenu"] } },
        "routes/$role.payouts._index": { handle: { i18n: "Payouts", title: "Payouts:title" } },
        "routes/$role.sales._index": { handle: { i18n: ["Sales"] } },
        "routes/account": { handle: { i18n: ["Account.Common"], portal: true } },
      },
    } as unknown as EntryContext;
    expect(matchedRouteNamespaces(context)).toEqual(["Global", "TopMenu", "Payouts"]);
  });
});
