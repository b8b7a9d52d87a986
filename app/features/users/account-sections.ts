/**
 * The account page, one page per section (issue #41, docs/product.md#account-page): the sections
 * in menu order, the anchors of the old single page each holds, and the forms (intents) each
 * section's page takes. Safe for the browser.
 */
import type { SettingsSection } from "#app/components/section-menu";

/** A section of the account page. */
export type AccountSectionId = "profile" | "security" | "sessions" | "privacy";

/** The sections, in menu order; `/account` shows the first. */
export const ACCOUNT_SECTIONS = [
  { id: "profile", label: "Profile", to: "/account/profile", anchors: ["profile", "email", "notifications"] },
  { id: "security", label: "Security", to: "/account/security", anchors: ["password", "two-factor", "passkeys"] },
  { id: "sessions", label: "Sessions", to: "/account/sessions", anchors: ["sessions"] },
  { id: "privacy", label: "Privacy", to: "/account/privacy", anchors: ["my-data", "close-account"] },
] as const satisfies readonly (SettingsSection & { id: AccountSectionId })[];

/** The forms (`intent`s) each section's page takes. */
export const ACCOUNT_SECTION_INTENTS: Record<AccountSectionId, readonly string[]> = {
  profile: ["profile", "change-email", "preferences"],
  security: [
    "change-password",
    "start-two-factor",
    "confirm-two-factor",
    "cancel-two-factor",
    "disable-two-factor",
    "rename-passkey",
    "remove-passkey",
  ],
  sessions: ["revoke-session", "revoke-other-sessions"],
  privacy: ["close-account"],
};

/** @returns the section of an `/account/:section` URL's parameter, or null when there is none such. */
export function accountSectionOf(param: string | undefined): AccountSectionId | null {
  return ACCOUNT_SECTIONS.find((s) => s.id === param)?.id ?? null;
}

/**
 * Where an old `/account?…` address goes: its query names the section (`?setup=two-factor` and
 * `?done=` the security page, `?my-data=` the privacy page); null when it names none.
 */
export function accountSectionForQuery(params: URLSearchParams): AccountSectionId | null {
  if (params.has("setup") || params.has("done")) return "security";
  if (params.has("my-data")) return "privacy";
  return null;
}
