import { z } from "zod";
import { msg } from "../../i18n/messages";

// Settings > Promote link: how the links affiliates hand out are made. The
// parameter name lives in Shop.referralParam and "apply the affiliate's
// discount" in Shop.autoApplyDiscount (the click handler reads both with
// every code lookup); the rest is kept in Shop.settings under "promoteLink".
// Pure, so the form (client) and the server share it.

export const LINK_DESTINATIONS = ["home", "page", "product"] as const;
export const LINK_FORMATS = ["short", "store"] as const;

const utm = z
  .string()
  .trim()
  .max(64, msg("Global:validation.textMax", { max: 64 }))
  .regex(/^[A-Za-z0-9._+-]*$/, msg("Settings:validation.utm"));

export const promoteLinkSchema = z
  .object({
    referral_param: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_-]{0,19}$/i, msg("Settings:validation.referralParam")),
    destination: z.enum(LINK_DESTINATIONS),
    destination_handle: z
      .string()
      .trim()
      .max(255, msg("Global:validation.textMax", { max: 255 }))
      .regex(/^[a-z0-9-]*$/i, msg("Settings:validation.handle")),
    link_format: z.enum(LINK_FORMATS),
    utm_source: utm,
    utm_medium: utm,
    utm_campaign: utm,
    // Links send the visitor through Shopify's /discount/{code} path, so the
    // affiliate's code applies at checkout without being typed.
    auto_apply_discount: z.boolean(),
    // With auto_apply_discount: whether affiliates still see their code to
    // share it (off: the code need never be published).
    show_codes: z.boolean(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.destination !== "home" && !v.destination_handle)
      ctx.addIssue({
        code: "custom",
        path: ["destination_handle"],
        message: msg("Settings:validation.handleRequired"),
      });
  });

export type PromoteLink = z.infer<typeof promoteLinkSchema>;

const DEFAULTS: Omit<PromoteLink, "referral_param" | "auto_apply_discount"> = {
  destination: "home",
  destination_handle: "",
  link_format: "short",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
  show_codes: true,
};

/** The saved settings from the shop's settings JSON; anything unreadable falls back to the defaults. */
export function readPromoteLink(settingsJson: string, referralParam: string, autoApplyDiscount = false): PromoteLink {
  let stored: unknown;
  try {
    stored = (JSON.parse(settingsJson) as Record<string, unknown>)?.promoteLink;
  } catch {
    stored = undefined;
  }
  const merged = {
    ...DEFAULTS,
    ...(stored && typeof stored === "object" ? stored : {}),
    referral_param: referralParam,
    auto_apply_discount: autoApplyDiscount,
  };
  const parsed = promoteLinkSchema.safeParse(merged);
  return parsed.success
    ? parsed.data
    : { ...DEFAULTS, referral_param: referralParam, auto_apply_discount: autoApplyDiscount };
}

/** The UTM parameters appended to a store path (existing query and fragment kept). */
export function withUtm(
  path: string,
  settings: Pick<PromoteLink, "utm_source" | "utm_medium" | "utm_campaign">,
): string {
  const pairs = (["utm_source", "utm_medium", "utm_campaign"] as const)
    .filter((k) => settings[k])
    .map((k) => `${k}=${encodeURIComponent(settings[k])}`);
  if (pairs.length === 0) return path;
  const hashAt = path.indexOf("#");
  const main = hashAt === -1 ? path : path.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : path.slice(hashAt);
  const kept = main.includes("?")
    ? main
        .slice(main.indexOf("?") + 1)
        .split("&")
        .filter((p) => p && !/^utm_(source|medium|campaign)=/.test(p))
    : [];
  const pathname = main.includes("?") ? main.slice(0, main.indexOf("?")) : main;
  return `${pathname}?${[...kept, ...pairs].join("&")}${hash}`;
}

/** Where an affiliate's main link lands: home, a page or a product, with the UTM parameters. */
export function defaultLandingPath(settings: PromoteLink): string {
  const base =
    settings.destination === "page"
      ? `/pages/${settings.destination_handle}`
      : settings.destination === "product"
        ? `/products/${settings.destination_handle}`
        : "/";
  return withUtm(base, settings);
}

/** Whether affiliates see their discount code: always, unless links apply it and the merchant hides it. */
export function showsCodes(settings: Pick<PromoteLink, "auto_apply_discount" | "show_codes">): boolean {
  return !settings.auto_apply_discount || settings.show_codes;
}
