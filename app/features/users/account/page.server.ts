/**
 * The account pages `/account/:section` (docs/product.md#account-page) on the server: what its sections
 * show, and the handler of each of its forms (one `intent` per form). The route only wires these
 * to React Router; each section's use-case lives in its own module of this folder.
 */
import { redirect } from "react-router";
import { closeOwnAccount, unpaidBalanceOnClosing } from "#app/features/privacy/close-account.server";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { PRIVACY_MESSAGES, myDataNotice } from "#app/features/privacy/privacy.messages";
import { closeAccountSchema } from "#app/features/privacy/privacy.schema";
import type { Env } from "#app/lib/env.server";
import { conformIntent, parseInput, requireConfirmation, type IntentHandler, type ConformIntent } from "#app/lib/form-action.server";
import type { RequestMeta } from "#app/lib/request.server";
import {
  adminProfileSchema,
  ambassadorProfileSchema,
  changeEmailSchema,
  changePasswordSchema,
  clientProfileSchema,
  confirmTwoFactorSchema,
  disableTwoFactorSchema,
  removePasskeySchema,
  renamePasskeySchema,
  revokeSessionSchema,
  startTwoFactorSchema,
} from "../account.schema";
import { ACCOUNT_MESSAGES } from "../account.messages";
import { preferencesSchema } from "../accounts.schema";
import type { AccountSectionId } from "../account-sections";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { getPreferences, savePreferences } from "../preferences.server";
import { requestEmailChange } from "./email-change.server";
import { listPasskeys, removePasskey, renamePasskey } from "./passkeys.server";
import { changePassword } from "./password-change.server";
import { updateProfile } from "./profile.server";
import { currentSessionId, listSessions, revokeOtherSessions, revokeSession } from "./sessions.server";
import { cancelTwoFactorSetup, confirmTwoFactor, disableTwoFactor, getTwoFactorState, startTwoFactor } from "./two-factor.server";

/** What the account page needs besides the user: the database and auth, configuration, the request. */
export interface AccountPageContext {
  deps: AccountDeps;
  env: Pick<Env, "origin" | "PASSWORD_MIN_LENGTH">;
  user: SessionUser;
  meta: RequestMeta;
}

/** Messages shown after a redirect (`?done=`): the actions that renew the session cookie redirect. */
const DONE_MESSAGES: Record<string, string> = {
  password: ACCOUNT_MESSAGES.passwordChanged,
  "two-factor-on": ACCOUNT_MESSAGES.twoFactorEnabled,
  "two-factor-off": ACCOUNT_MESSAGES.twoFactorDisabled,
};

/**
 * What one section of the account page shows, read for the signed-in user only.
 *
 * @param url - the page's URL: `?setup=two-factor` (an admin sent to set it up) and `?done=`.
 * @param section - the section's page (issue #41); what the others show is not read (null or empty).
 */
export async function loadAccountPage({ deps, env, user, meta }: AccountPageContext, url: URL, section: AccountSectionId) {
  const canClose = user.role === "client" || user.role === "ambassador";
  // Each section's page reads what it shows (issue #41); the two-factor state is also the closing form's.
  const [preferences, sessions, twoFactor, passkeys, unpaid, settings] = await Promise.all([
    section === "profile" ? getPreferences(deps.db, user) : null,
    section === "sessions" ? currentSessionId(deps, meta).then((sessionId) => listSessions(deps.db, user, sessionId)) : [],
    section === "security" || section === "privacy" ? getTwoFactorState(deps, user) : null,
    section === "security" ? listPasskeys(deps.db, user) : [],
    canClose && section === "privacy" ? unpaidBalanceOnClosing(deps.db, user.id) : null,
    getSettings(deps.db),
  ]);
  const done = DONE_MESSAGES[url.searchParams.get("done") ?? ""] ?? null;
  return {
    user: {
      role: user.role,
      email: user.email,
      name: user.name,
      businessName: user.businessName,
      phone: user.phone,
      website: user.website,
      referralCode: user.referralCode,
    },
    minPassword: env.PASSWORD_MIN_LENGTH,
    preferences,
    sessions,
    twoFactor,
    passkeys,
    setupRequired: url.searchParams.get("setup") === "two-factor" && twoFactor !== null && !twoFactor.enabled,
    /** Clients and ambassadors close their own account; an admin's is closed by another admin. */
    canClose,
    /** An unpaid balance closing would leave behind (issue #41), said before the confirmation; null when none. */
    unpaidOnClosing: unpaid?.invoices.length ? { ...unpaid, currency: currencyOf(settings) } : null,
    passwordDone: done === ACCOUNT_MESSAGES.passwordChanged ? done : null,
    twoFactorDone: done && done !== ACCOUNT_MESSAGES.passwordChanged ? done : null,
    /** "Download my data" sent no file: queued, being prepared, or over the hourly limit (`POST /account/my-data`). */
    myData: myDataNotice(url.searchParams.get("my-data")),
  };
}

/** What {@link loadAccountPage} returns (the page's loader data). */
export type AccountPageData = Awaited<ReturnType<typeof loadAccountPage>>;

/**
 * The account page's forms, one handler per `intent` (for `runIntent`). Those that renew the
 * session cookie (password, two-factor on/off) redirect back with `?done=`.
 */
export function accountIntents({ deps, env, user, meta }: AccountPageContext): Record<string, IntentHandler | ConformIntent> {
  const profileSchema =
    user.role === "client" ? clientProfileSchema : user.role === "ambassador" ? ambassadorProfileSchema : adminProfileSchema;
  const back = (done: string, headers: Headers, hash: string) => redirect(`/account/security?done=${done}${hash}`, { headers });
  return {
    profile: conformIntent(profileSchema, async (value) => {
      await updateProfile(deps.db, user, value);
      return ACCOUNT_MESSAGES.profileSaved;
    }),
    preferences: conformIntent(preferencesSchema, async (value) => {
      await savePreferences(deps.db, user, value);
      return ACCOUNT_MESSAGES.preferencesSaved;
    }),
    "change-email": conformIntent(changeEmailSchema, async (value) => {
      await requestEmailChange(deps, user, value);
      return ACCOUNT_MESSAGES.emailSent;
    }),
    "change-password": conformIntent(changePasswordSchema(env.PASSWORD_MIN_LENGTH), async (value) =>
      back("password", await changePassword(deps, user, value, meta), "#password"),
    ),
    "revoke-session": conformIntent(revokeSessionSchema, async (value) => {
      await revokeSession(deps, user, value.id, await currentSessionId(deps, meta), meta);
      return ACCOUNT_MESSAGES.sessionEnded;
    }),
    "revoke-other-sessions": async (form) => {
      requireConfirmation(form, "Confirm first.");
      await revokeOtherSessions(deps, meta);
      return ACCOUNT_MESSAGES.otherSessionsEnded;
    },
    "start-two-factor": conformIntent(startTwoFactorSchema, async (value) => {
      await startTwoFactor(deps, user, value.password, meta);
      return ACCOUNT_MESSAGES.twoFactorStarted;
    }),
    "confirm-two-factor": conformIntent(confirmTwoFactorSchema, async (value) =>
      back("two-factor-on", await confirmTwoFactor(deps, user, value.code, meta), "#two-factor"),
    ),
    "cancel-two-factor": async () => {
      await cancelTwoFactorSetup(deps.db, user);
      return ACCOUNT_MESSAGES.twoFactorCancelled;
    },
    "disable-two-factor": conformIntent(disableTwoFactorSchema, async (value) =>
      back("two-factor-off", await disableTwoFactor(deps, user, value, meta), "#two-factor"),
    ),
    "rename-passkey": conformIntent(renamePasskeySchema, async (value) => {
      await renamePasskey(deps, user, value, meta);
      return ACCOUNT_MESSAGES.passkeyRenamed;
    }),
    "remove-passkey": async (form) => {
      requireConfirmation(form);
      const { id } = parseInput(removePasskeySchema, { id: form.get("id") });
      await removePasskey(deps, user, id, meta);
      return ACCOUNT_MESSAGES.passkeyRemoved;
    },
    // docs/product.md#closing-an-account
    "close-account": async (form) => {
      requireConfirmation(form, PRIVACY_MESSAGES.closeConfirmFirst);
      const value = parseInput(closeAccountSchema, {
        password: form.get("password") ?? "",
        code: form.get("code") ?? undefined,
        acknowledgeUnpaid: form.get("acknowledgeUnpaid") ?? undefined,
      });
      const headers = await closeOwnAccount(deps, user, value, meta);
      return redirect("/login?closed=1", { headers });
    },
  };
}
