import { z } from "zod";
import { msg } from "../../i18n/messages";

// An affiliate's name, as the sign-up form and the profile form take it.
export const firstNameField = z
  .string({ required_error: msg("Account.Common:validation.firstName") })
  .trim()
  .min(1, msg("Account.Common:validation.firstName"))
  .max(80);

export const lastNameField = z
  .string({ required_error: msg("Account.Common:validation.lastName") })
  .trim()
  .min(1, msg("Account.Common:validation.lastName"))
  .max(80);
