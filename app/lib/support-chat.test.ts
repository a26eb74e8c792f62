import { describe, expect, it } from "vitest";
import { chatConfig, chatCspSources, chatSessionData } from "./support-chat";

describe("support chat", () => {
  it.each([
    [{}, null],
    [{ provider: "crisp" }, null],
    [{ provider: "zendesk", siteId: "x" }, null],
    [{ provider: "crisp", siteId: "bad id!" }, null],
    [
      { provider: "crisp", siteId: "abc-123" },
      { provider: "crisp", siteId: "abc-123", scriptUrl: "https://client.crisp.chat/l.js" },
    ],
    [
      { provider: "Tawk", siteId: "5f00/1abc" },
      { provider: "tawk", siteId: "5f00/1abc", scriptUrl: "https://embed.tawk.to/5f00%2F1abc/default" },
    ],
    [
      { provider: "intercom", siteId: "abcd1234" },
      { provider: "intercom", siteId: "abcd1234", scriptUrl: "https://widget.intercom.io/widget/abcd1234" },
    ],
    [
      { provider: "crisp", siteId: "s", scriptUrl: "http://127.0.0.1:9/l.js" },
      { provider: "crisp", siteId: "s", scriptUrl: "http://127.0.0.1:9/l.js" },
    ],
  ])("reads %j", (env, expected) => {
    expect(chatConfig(env)).toEqual(expected);
  });

  it("allows only the configured provider, or only a replaced loader's origin", () => {
    expect(chatCspSources(null).script).toEqual([]);
    const crisp = chatCspSources(chatConfig({ provider: "crisp", siteId: "s" }));
    expect(crisp.script).toContain("https://client.crisp.chat");
    expect(JSON.stringify(crisp)).not.toMatch(/tawk|intercom/);
    const own = chatCspSources(
      chatConfig({ provider: "intercom", siteId: "s", scriptUrl: "https://chat.example.com/w.js" }),
    );
    expect(own).toEqual({
      script: ["https://chat.example.com"],
      connect: ["https://chat.example.com"],
      frame: ["https://chat.example.com"],
      style: ["https://chat.example.com"],
      font: ["https://chat.example.com"],
    });
  });

  it("hands the widget the six values", () => {
    expect(
      chatSessionData({
        url: "https://gear.example",
        version: "1.2.0",
        created_at: "2026-01-02T03:04:05.000Z",
        configuration: { admin_email: "o@gear.example", plan_name: "basic" },
        pricing: { plan: "growth" },
      }),
    ).toEqual({
      store_url: "https://gear.example",
      admin_contact: "o@gear.example",
      app_version: "1.2.0",
      pricing_plan: "growth",
      store_platform_plan: "basic",
      created_at: "2026-01-02T03:04:05.000Z",
    });
  });
});
