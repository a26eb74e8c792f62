import { z } from "zod";
import { msg } from "../../i18n/messages";
import { ID_PATTERN } from "../../lib/ids";
import { CREATIVE_KINDS } from "./file-types";

// One schema per form or query of the creatives screens, used on both sides.

export const CREATIVES_PAGE_SIZE = 20;
export const GALLERY_PAGE_SIZE = 12;
const MAX_PAGE = 100_000;

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const page = z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(MAX_PAGE).catch(1).default(1));

export const creativeListQuerySchema = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()).catch(undefined),
  kind: z.preprocess(blankToUndefined, z.enum(CREATIVE_KINDS).optional()).catch(undefined),
  category: z.preprocess(blankToUndefined, z.string().trim().max(60).optional()).catch(undefined),
  page,
});
export type CreativeListQuery = z.infer<typeof creativeListQuerySchema>;

export const galleryQuerySchema = z.object({
  kind: z.preprocess(blankToUndefined, z.enum(CREATIVE_KINDS).optional()).catch(undefined),
  category: z.preprocess(blankToUndefined, z.string().trim().max(60).optional()).catch(undefined),
  page,
});
export type GalleryQuery = z.infer<typeof galleryQuerySchema>;

/** The merchant's form for any kind; which fields count depends on the kind. */
export const creativeFormSchema = z
  .object({
    kind: z.enum(CREATIVE_KINDS),
    title: z
      .string()
      .trim()
      .min(1, msg("Creatives:validation.title"))
      .max(120, msg("Global:validation.textMax", { max: 120 })),
    category: z
      .string()
      .trim()
      .max(60, msg("Global:validation.textMax", { max: 60 }))
      .default(""),
    description: z
      .string()
      .trim()
      .max(500, msg("Global:validation.textMax", { max: 500 }))
      .default(""),
    // A path on the store or an address on its own domain; checked against the shop's hosts.
    destination: z.string().trim().max(2048).default(""),
    videoUrl: z.string().trim().max(2048).default(""),
    body: z
      .string()
      .max(5000, msg("Global:validation.textMax", { max: 5000 }))
      .default(""),
    allCampaigns: z.boolean().default(true),
    campaignIds: z.array(z.string().regex(ID_PATTERN)).max(200).default([]),
    active: z.boolean().default(true),
  })
  .superRefine((form, ctx) => {
    if (form.kind === "video" && !/^https:\/\/[^\s/]+\.[^\s]+$/i.test(form.videoUrl)) {
      ctx.addIssue({ code: "custom", path: ["videoUrl"], message: msg("Creatives:validation.videoUrl") });
    }
    if (form.kind === "text" && form.body.trim() === "") {
      ctx.addIssue({ code: "custom", path: ["body"], message: msg("Creatives:validation.body") });
    }
    if (!form.allCampaigns && form.campaignIds.length === 0) {
      ctx.addIssue({ code: "custom", path: ["campaignIds"], message: msg("Creatives:validation.campaigns") });
    }
  });
export type CreativeForm = z.infer<typeof creativeFormSchema>;

export const CREATIVE_USE_ACTIONS = ["download", "embed", "copy"] as const;
export type CreativeUseAction = (typeof CREATIVE_USE_ACTIONS)[number];

/** What the affiliate's page sends when they copy an embed code or a caption. */
export const creativeUseSchema = z.object({
  id: z.string().regex(ID_PATTERN),
  action: z.enum(["embed", "copy"]),
});
