/** The close-account form (docs/product.md#closing-an-account): the password, and a code when two-factor is on. */
import { z } from "zod";

export const closeAccountSchema = z.object({
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(128, "Password must be at most 128 characters."),
  code: z
    .string()
    .trim()
    .max(20, "That code is not valid.")
    .optional()
    .transform((v) => v || undefined),
  /** The "it stays due" box, shown when an unpaid balance would be left behind (issue #41). */
  acknowledgeUnpaid: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "yes"),
});
