import { z } from "zod";
import { msg } from "../../i18n/messages";

// The merchant's marketplace offer (Settings > Marketplace). Shared by the
// form (client) and the route's action (server). Messages are translation keys.

export const MARKETPLACE_CATEGORIES = ["fashion", "beauty", "home", "tech", "health", "other"] as const;

const text = (max: number) => z.string().trim().max(max, msg("Global:validation.textMax", { max }));

export const listingFields = z
  .object({
    listed: z.boolean(),
    title: text(80),
    description: text(1000),
    commissionSummary: text(160),
    category: z.enum(MARKETPLACE_CATEGORIES, { errorMap: () => ({ message: msg("Global:validation.choose") }) }),
    // An image this shop uploaded here (through the portal images' storage;
    // the server checks it is one of the shop's) or none.
    logoUrl: z
      .string()
      .trim()
      .max(500, msg("Global:validation.textMax", { max: 500 }))
      .regex(/^(\/portal-assets\/[A-Za-z0-9_-]+\/[a-z0-9][a-z0-9._-]*)?$/, msg("Settings.Marketplace:validation.logo")),
  })
  .strict();

/** A listed offer must tell affiliates what it is and what it pays. */
export function checkListing(
  v: { listed: boolean; title: string; description: string; commissionSummary: string },
  ctx: z.RefinementCtx,
) {
  if (!v.listed) return;
  for (const key of ["title", "description", "commissionSummary"] as const) {
    if (!v[key]) ctx.addIssue({ code: "custom", path: [key], message: msg("Global:validation.required") });
  }
}

export const listingFormSchema = listingFields.superRefine(checkListing);

export type ListingForm = z.infer<typeof listingFormSchema>;

/** The public page's query: ?q=&category=&page= (bad values fall back, never a 4xx). */
export const marketplaceQuerySchema = z.object({
  q: z
    .string()
    .catch("")
    .transform((v) => v.trim().slice(0, 80))
    .default(""),
  category: z.enum(MARKETPLACE_CATEGORIES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

export type MarketplaceQuery = z.infer<typeof marketplaceQuerySchema>;
