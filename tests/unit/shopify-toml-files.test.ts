import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { FLOW_ACTIONS } from "~/models/flow/flow-actions";
import { FLOW_TRIGGERS } from "~/models/flow/flow-triggers";
import { webPixelSettings } from "~/models/shop/web-pixel.server";

// Every TOML file Shopify CLI reads, parsed with a TOML library and held to
// the keys Shopify documents for it, so a typo or a key of another file kind
// fails here and not at `shopify app deploy`. The key lists follow Shopify's
// reference pages (written out here, not copied):
// - shopify.app.toml: shopify.dev/docs/apps/build/cli-for-apps/app-configuration
// - shopify.web.toml: shopify.dev/docs/apps/build/cli-for-apps/app-structure (web components)
// - extensions: the configuration pages of theme app extensions, web pixel
//   extensions (shopify.dev/docs/apps/build/marketing-analytics/build-web-pixels)
//   and UI extensions (shopify.dev/docs/api/checkout-ui-extensions/configuration).
// - Shopify Flow: the trigger and action references
//   (shopify.dev/docs/apps/build/flow/triggers/reference, .../actions/reference).

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => parse(readFileSync(path.join(ROOT, file), "utf8")) as Table;

type Table = Record<string, unknown>;
/** A table's documented keys: a nested table, an array of tables (`[spec]`), or a plain value (`true`). */
interface Spec {
  keys: Record<string, true | Spec | [Spec]>;
  required?: string[];
  /** Keys named by the file's author (settings fields), each a table of this shape. */
  anyKey?: Spec;
}

const isTable = (v: unknown): v is Table =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** Every key outside the documented ones, and every missing required key, as "path: problem". */
function problems(value: Table, spec: Spec, at = ""): string[] {
  const out: string[] = [];
  for (const key of spec.required ?? []) if (!(key in value)) out.push(`${at}${key}: required`);
  for (const [key, child] of Object.entries(value)) {
    const where = `${at}${key}`;
    const rule = spec.keys[key] ?? spec.anyKey;
    if (!rule) {
      out.push(`${where}: not a documented key`);
      continue;
    }
    if (rule === true) continue;
    if (Array.isArray(rule)) {
      if (!Array.isArray(child) || !child.every(isTable)) out.push(`${where}: must be an array of tables`);
      else child.forEach((item, i) => out.push(...problems(item, rule[0], `${where}[${i}].`)));
    } else if (!isTable(child)) out.push(`${where}: must be a table`);
    else out.push(...problems(child, rule, `${where}.`));
  }
  return out;
}

const leaves = (...names: string[]) => Object.fromEntries(names.map((n) => [n, true as const]));

const APP_SPEC: Spec = {
  required: ["client_id", "name", "application_url", "embedded"],
  keys: {
    ...leaves("client_id", "name", "handle", "application_url", "embedded", "extension_directories", "web_directories"),
    access_scopes: { keys: leaves("scopes", "optional_scopes", "use_legacy_install_flow") },
    access: { keys: { admin: { keys: leaves("direct_api_mode", "embedded_app_direct_api_access") } } },
    auth: { keys: leaves("redirect_urls") },
    webhooks: {
      required: ["api_version"],
      keys: {
        api_version: true,
        subscriptions: [
          { required: ["uri"], keys: leaves("topics", "compliance_topics", "uri", "filter", "include_fields") },
        ],
      },
    },
    app_proxy: { required: ["url", "subpath", "prefix"], keys: leaves("url", "subpath", "prefix") },
    pos: { keys: leaves("embedded") },
    app_preferences: { keys: leaves("url") },
    build: { keys: leaves("automatically_update_urls_on_dev", "dev_store_url", "include_config_on_deploy") },
  },
};

const WEB_SPEC: Spec = {
  required: ["commands"],
  keys: {
    ...leaves("name", "roles", "type", "port", "webhooks_path", "auth_callback_path"),
    hmr_server: { keys: leaves("http_paths") },
    commands: { required: ["dev"], keys: leaves("dev", "build", "predev") },
  },
};

const EXTENSION_COMMON = leaves("name", "type", "handle", "uid", "description");

const EXTENSION_SPECS: Record<string, Spec> = {
  theme: { required: ["name", "type"], keys: EXTENSION_COMMON },
  web_pixel_extension: {
    required: ["name", "type", "runtime_context", "settings"],
    keys: {
      ...EXTENSION_COMMON,
      runtime_context: true,
      customer_privacy: { keys: leaves("analytics", "marketing", "preferences", "sale_of_data") },
      settings: {
        required: ["type"],
        keys: {
          type: true,
          fields: {
            keys: {},
            anyKey: { required: ["name", "type"], keys: leaves("name", "description", "type", "validations") },
          },
        },
      },
    },
  },
  ui_extension: {
    required: ["api_version", "extensions"],
    keys: {
      api_version: true,
      extensions: [
        {
          required: ["name", "handle", "type", "targeting"],
          keys: {
            ...EXTENSION_COMMON,
            targeting: [
              { required: ["module", "target"], keys: leaves("module", "target", "export", "default_placement") },
            ],
            capabilities: {
              keys: {
                ...leaves("api_access", "network_access", "block_progress"),
                collect_buyer_consent: { keys: leaves("sms_marketing", "customer_privacy") },
              },
            },
            settings: { keys: leaves("fields") },
            metafields: [{ keys: leaves("namespace", "key") }],
          },
        },
      ],
    },
  },
};

// Flow's field types that the app uses (a reference type such as
// customer_reference would carry its own `<type>_id` key instead).
const FLOW_FIELD_TYPES = [
  "single_line_text_field",
  "multi_line_text_field",
  "email",
  "url",
  "number_decimal",
  "number_integer",
  "boolean",
  "date",
  "date_time",
];
/** Flow's rule for a handle: at most 30 letters, digits and hyphens. */
const FLOW_HANDLE = /^[a-z0-9-]{1,30}$/;

const FLOW_EXTENSION = (type: "flow_trigger" | "flow_action"): Spec => ({
  required: ["extensions", "settings"],
  keys: {
    extensions: [
      {
        required: type === "flow_action" ? ["name", "type", "handle", "runtime_url"] : ["name", "type", "handle"],
        keys:
          type === "flow_action"
            ? {
                ...EXTENSION_COMMON,
                ...leaves(
                  "runtime_url",
                  "validation_url",
                  "config_page_url",
                  "config_page_preview_url",
                  "schema",
                  "return_type_ref",
                ),
              }
            : { ...EXTENSION_COMMON, ...leaves("schema") },
      },
    ],
    settings: {
      keys: {
        fields: [
          type === "flow_action"
            ? { required: ["type", "key", "name"], keys: leaves("type", "key", "name", "description", "required") }
            : { required: ["type", "key"], keys: leaves("type", "key", "description") },
        ],
      },
    },
  },
});
EXTENSION_SPECS.flow_trigger = FLOW_EXTENSION("flow_trigger");
EXTENSION_SPECS.flow_action = FLOW_EXTENSION("flow_action");

const EXTENSIONS = readdirSync(path.join(ROOT, "extensions"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `extensions/${d.name}/shopify.extension.toml`);

/** The extension's kind: top-level `type`, or the unified format's `[[extensions]] type`. */
function extensionType(toml: Table): string {
  if (typeof toml.type === "string") return toml.type;
  const first = (toml.extensions as Table[] | undefined)?.[0];
  return String(first?.type ?? "");
}

describe("Shopify's TOML files", () => {
  const app = read("shopify.app.toml");
  const web = read("shopify.web.toml");

  it("shopify.app.toml has only documented keys, and values Shopify accepts", () => {
    expect(problems(app, APP_SPEC)).toEqual([]);
    const appUrl = new URL(String(app.application_url));
    const webhooks = app.webhooks as { api_version: string; subscriptions: Table[] };
    expect(webhooks.api_version).toMatch(/^\d{4}-(01|04|07|10)$/);
    for (const sub of webhooks.subscriptions) {
      for (const topic of [...((sub.topics as string[]) ?? []), ...((sub.compliance_topics as string[]) ?? [])])
        expect(topic).toMatch(/^[a-z_]+\/[a-z_]+$/);
      // Relative to application_url, or a full https URL.
      expect(String(sub.uri)).toMatch(/^(\/|https:\/\/)/);
    }
    const scopes = String((app.access_scopes as Table).scopes).split(",");
    for (const scope of scopes)
      expect(scope).toMatch(/^(read|write|unauthenticated_read|unauthenticated_write)_[a-z_]+$/);
    const proxy = app.app_proxy as { url: string; subpath: string; prefix: string };
    expect(["apps", "a", "community", "tools"]).toContain(proxy.prefix);
    expect(proxy.subpath).toMatch(/^[a-z0-9_-]+$/i);
    expect(new URL(proxy.url).origin).toBe(appUrl.origin);
    for (const url of (app.auth as { redirect_urls: string[] }).redirect_urls)
      expect(new URL(url).origin).toBe(appUrl.origin);
  });

  it("shopify.web.toml has only documented keys; one process serves both roles and its webhooks path is the app's", () => {
    expect(problems(web, WEB_SPEC)).toEqual([]);
    expect([...(web.roles as string[])].sort()).toEqual(["backend", "frontend"]);
    const uris = (app.webhooks as { subscriptions: Table[] }).subscriptions.map((s) => s.uri);
    expect(uris).toContain(web.webhooks_path);
    // The scripts the commands call exist.
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.dev).toBe("shopify app dev");
    expect(scripts.deploy).toBe("shopify app deploy");
    for (const command of Object.values(web.commands as Record<string, string>))
      for (const [, name] of command.matchAll(/npm run ([\w:-]+)/g)) expect(scripts).toHaveProperty(name!);
  });

  it.each(EXTENSIONS)("%s has only the documented keys of its extension type", (file) => {
    const toml = read(file);
    const type = extensionType(toml);
    expect(Object.keys(EXTENSION_SPECS)).toContain(type);
    expect(problems(toml, EXTENSION_SPECS[type]!)).toEqual([]);
    if (type === "ui_extension") expect(toml.api_version).toBe((app.webhooks as { api_version: string }).api_version);
  });

  it("the web pixel's settings are exactly what the app sends in webPixelCreate", () => {
    const pixel = read("extensions/affiliate-pixel/shopify.extension.toml");
    expect(pixel.runtime_context).toBe("strict");
    const settings = pixel.settings as { type: string; fields: Record<string, { type: string }> };
    expect(settings.type).toBe("object");
    for (const field of Object.values(settings.fields))
      expect(["single_line_text_field", "multi_line_text_field"]).toContain(field.type);
    const privacy = pixel.customer_privacy as Table;
    expect(["enabled", "disabled"]).toContain(privacy.sale_of_data);
    const sent = JSON.parse(webPixelSettings("https://app.example")) as Table;
    expect(Object.keys(sent).sort()).toEqual(Object.keys(settings.fields).sort());
  });

  it("every Flow trigger and action of the app has its extension, with exactly the app's fields", () => {
    const flow = EXTENSIONS.map((file) => ({ file, toml: read(file) })).filter(({ toml }) =>
      extensionType(toml).startsWith("flow_"),
    );
    const appUrl = new URL(String(app.application_url));
    const seen: string[] = [];
    for (const { file, toml } of flow) {
      const ext = (toml.extensions as Table[])[0]!;
      const handle = String(ext.handle);
      expect(handle, file).toMatch(FLOW_HANDLE);
      expect(file).toBe(
        `extensions/${ext.type === "flow_trigger" ? "flow-trigger" : "flow-action"}-${handle}/shopify.extension.toml`,
      );
      const fields = ((toml.settings as Table).fields as Table[]) ?? [];
      for (const f of fields) expect(FLOW_FIELD_TYPES, `${file} ${String(f.key)}`).toContain(f.type);
      const keys = fields.map((f) => f.key);
      expect(new Set(keys).size, `${file}: a key twice`).toBe(keys.length);
      if (ext.type === "flow_trigger") {
        const def = FLOW_TRIGGERS[handle as keyof typeof FLOW_TRIGGERS];
        expect(def, `${file}: not in FLOW_TRIGGERS`).toBeDefined();
        expect(ext.name).toBe(def.name);
        expect(fields).toEqual(def.fields.map((f) => ({ type: f.type, key: f.key, description: f.description })));
      } else {
        const def = FLOW_ACTIONS[handle as keyof typeof FLOW_ACTIONS];
        expect(def, `${file}: not in FLOW_ACTIONS`).toBeDefined();
        expect(ext.name).toBe(def.name);
        expect(fields).toEqual(
          def.fields.map((f) => ({
            type: f.type,
            key: f.key,
            name: f.name,
            description: f.description,
            required: f.required,
          })),
        );
        const runtime = new URL(String(ext.runtime_url));
        expect(runtime.protocol).toBe("https:");
        expect(runtime.origin).toBe(appUrl.origin);
        expect(runtime.pathname).toBe(`/flow/actions/${handle}`);
      }
      seen.push(`${String(ext.type)}:${handle}`);
    }
    expect(seen.sort()).toEqual(
      [
        ...Object.keys(FLOW_TRIGGERS).map((h) => `flow_trigger:${h}`),
        ...Object.keys(FLOW_ACTIONS).map((h) => `flow_action:${h}`),
      ].sort(),
    );
  });

  it("the Flow checker refuses a trigger without a handle and an action without a runtime URL", () => {
    const trigger = { extensions: [{ name: "x", type: "flow_trigger" }], settings: { fields: [{ type: "email" }] } };
    expect(problems(trigger, EXTENSION_SPECS.flow_trigger!)).toEqual([
      "extensions[0].handle: required",
      "settings.fields[0].key: required",
    ]);
    const action = { extensions: [{ name: "x", type: "flow_action", handle: "x" }], settings: {} };
    expect(problems(action, EXTENSION_SPECS.flow_action!)).toEqual(["extensions[0].runtime_url: required"]);
  });

  it("the checker itself refuses an unknown key, a missing one and a misplaced table", () => {
    expect(problems({ name: "x", commands: { dev: "a", devv: "b" }, role: ["frontend"] }, WEB_SPEC)).toEqual([
      "commands.devv: not a documented key",
      "role: not a documented key",
    ]);
    expect(problems({ commands: {} }, WEB_SPEC)).toEqual(["commands.dev: required"]);
    expect(problems({ ...app, access_scopes: "read_orders" }, APP_SPEC)).toEqual(["access_scopes: must be a table"]);
  });
});
