import { z } from "zod";
import { STAFF_AREAS } from "../../lib/areas";

// Forms of Settings > Staff. Permissions arrive as one comma-separated field
// (the form's checkboxes joined), each an area of lib/areas.ts.

const permissions = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value),
  z
    .array(z.enum(STAFF_AREAS, { errorMap: () => ({ message: "Not a permission area" }) }))
    .max(STAFF_AREAS.length)
    .transform((areas) => STAFF_AREAS.filter((area) => areas.includes(area))),
);

const name = z
  .string({ required_error: "Enter a name" })
  .trim()
  .min(1, "Enter a name")
  .max(100, "Use at most 100 characters");

export const staffInviteSchema = z.object({
  email: z
    .string({ required_error: "Enter an e-mail address" })
    .trim()
    .toLowerCase()
    .max(254, "Use at most 254 characters")
    .email("Enter a valid e-mail address"),
  name,
  permissions,
});

export const staffUpdateSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a valid id"),
  name,
  permissions,
});

export const staffIdSchema = z.object({ id: staffUpdateSchema.shape.id });

export type StaffInvite = z.infer<typeof staffInviteSchema>;
export type StaffUpdate = z.infer<typeof staffUpdateSchema>;
