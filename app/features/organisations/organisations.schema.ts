/**
 * Forms of the organisation pages (docs/product.md#organisations): the organisation's details,
 * an invitation, a role change, and the invitation page's new-account form.
 */
import { z } from "zod";
import { ORGANISATION_ROLES } from "#app/db/enums";
import { optionalText, optionalUrl, requiredEmail, requiredText } from "#app/lib/text-fields";

/** A role field (owner, billing, member). */
export const organisationRoleField = z.enum(ORGANISATION_ROLES, { error: "Choose a role." });

/** The organisation's details; `name` is the spec's "business name". */
export const organisationDetailsSchema = z.object({
  name: requiredText("Business name", 200),
  address: optionalText("Address", 500),
  taxId: optionalText("Tax ID", 64),
  website: optionalUrl("Website"),
});

/** An invitation: an e-mail address and a role. */
export const invitationSchema = z.object({
  email: requiredEmail("Email is required."),
  role: organisationRoleField,
});

/** A role change of one member (`userId` is the member's user id). */
export const memberRoleSchema = z.object({
  userId: z.string().trim().min(1).max(64),
  role: organisationRoleField,
});
