import { Form, redirect, useRevalidator } from "react-router";
import type { ComponentProps, ReactNode } from "react";
import type { Route } from "./+types/settings";
import { PortalShell } from "#app/components/portal-header";
import { PageHeading } from "#app/components/page-heading";
import { LocalDateTime } from "#app/components/local-time";
import { ConfirmAction, usePendingIntent } from "#app/components/ui/confirm-action";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { FormMessage } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import {
  ACCOUNT_MESSAGES,
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
} from "#app/features/users/account.schema";
import {
  cancelTwoFactorSetup,
  changePassword,
  confirmTwoFactor,
  currentSessionId,
  disableTwoFactor,
  getTwoFactorState,
  listPasskeys,
  listSessions,
  removePasskey,
  renamePasskey,
  requestEmailChange,
  revokeOtherSessions,
  revokeSession,
  startTwoFactor,
  updateProfile,
} from "#app/features/users/account.server";
import { preferencesSchema } from "#app/features/users/accounts.schema";
import { AddPasskey } from "#app/features/users/components/passkey-buttons";
import { navItemsFor } from "#app/features/users/navigation";
import { getPreferences, savePreferences } from "#app/features/users/preferences.server";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { conformIntent, parseInput, requireConfirmation, runIntent, type FormReply } from "#app/lib/form-action.server";
import { accountDeps, requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Account settings" }, { name: "robots", content: "noindex" }];

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

/** Messages shown after a redirect (`?done=`): the actions that renew the session cookie redirect. */
const DONE_MESSAGES: Record<string, string> = {
  password: ACCOUNT_MESSAGES.passwordChanged,
  "two-factor-on": ACCOUNT_MESSAGES.twoFactorEnabled,
  "two-factor-off": ACCOUNT_MESSAGES.twoFactorDisabled,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = accountDeps(context);
  const { env } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const url = new URL(request.url);
  const sessionId = await currentSessionId(deps, meta);
  const [preferences, sessions, twoFactor, passkeys] = await Promise.all([
    getPreferences(deps.db, user),
    listSessions(deps.db, user, sessionId),
    getTwoFactorState(deps, user),
    listPasskeys(deps.db, user),
  ]);
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
    notifyUpdates: preferences.notifyUpdates,
    notifyMessages: preferences.notifyMessages,
    sessions,
    twoFactor,
    passkeys,
    setupRequired: url.searchParams.get("setup") === "two-factor" && !twoFactor.enabled,
    done: DONE_MESSAGES[url.searchParams.get("done") ?? ""] ?? null,
  };
}

/**
 * The account page's forms (docs/product.md#account-page), each posting an `intent`. Those
 * that renew the session cookie (password, two-factor on/off) redirect back with `?done=`.
 */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const user = requireUser(context);
  const deps = accountDeps(context);
  const { env } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const profileSchema =
    user.role === "client" ? clientProfileSchema : user.role === "ambassador" ? ambassadorProfileSchema : adminProfileSchema;
  const back = (done: string, headers: Headers, hash = "") => redirect(`/account?done=${done}${hash}`, { headers });
  return runIntent(args, {
    profile: conformIntent(profileSchema, async (value) => {
      await updateProfile(deps.db, user, value);
      return ACCOUNT_MESSAGES.profileSaved;
    }),
    preferences: conformIntent(preferencesSchema, async (value) => {
      await savePreferences(deps.db, user, value);
      return "Preferences saved.";
    }),
    "change-email": conformIntent(changeEmailSchema, async (value) => {
      await requestEmailChange({ ...deps, env }, user, value);
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
      return "Scan the QR code with your authenticator app, then enter a code to finish.";
    }),
    "confirm-two-factor": conformIntent(confirmTwoFactorSchema, async (value) =>
      back("two-factor-on", await confirmTwoFactor(deps, user, value.code, meta), "#two-factor"),
    ),
    "cancel-two-factor": async () => {
      await cancelTwoFactorSetup(deps.db, user);
      return "Two-factor setup cancelled.";
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
  });
}

type LoaderData = Route.ComponentProps["loaderData"];

/** The reply of this intent's form, if the last post was it. */
function replyFor(reply: FormReply | undefined, intent: string, target?: string): FormReply | null {
  if (!reply || reply.intent !== intent) return null;
  if (target !== undefined && reply.target !== target) return null;
  return reply;
}

function errorsOf(reply: FormReply | null, field: string): string[] | undefined {
  return reply && !reply.ok ? reply.fieldErrors?.[field] : undefined;
}

/** A required {@link InputField} whose error messages are the reply's errors for its `name`. */
function ReplyField({
  reply,
  name,
  ...field
}: { reply: FormReply | null; name: string } & Omit<ComponentProps<typeof InputField>, "name" | "errors">) {
  return <InputField name={name} required errors={errorsOf(reply, name)} {...field} />;
}

/** A reply's message above its form: success in green, a refusal without field errors in red. */
function ReplyMessage({ reply }: { reply: FormReply | null }) {
  if (!reply) return null;
  if (reply.ok) return <FormMessage success={reply.message} />;
  // Field errors are shown next to their fields.
  if (reply.fieldErrors && Object.keys(reply.fieldErrors).length) return null;
  return <FormMessage errors={[reply.message]} />;
}

function Section({ id, title, lead, children }: { id: string; title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 rounded-xl border border-slate-200 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      {lead ? <p className="mt-1 text-sm text-slate-700">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

function IntentForm({ intent, children, className = "flex flex-col gap-4" }: { intent: string; children: ReactNode; className?: string }) {
  return (
    <Form method="post" className={className} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

function Submit({ intent, children, pendingLabel }: { intent: string; children: ReactNode; pendingLabel: string }) {
  const pending = usePendingIntent(intent);
  return (
    <div>
      <SubmitButton pending={pending} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
    </div>
  );
}

function ProfileSection({ user, reply }: { user: LoaderData["user"]; reply: FormReply | null }) {
  const field = (name: string, label: string, value: string | null, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <InputField id={`profile-${name}`} name={name} label={label} defaultValue={value ?? ""} errors={errorsOf(reply, name)} {...extra} />
  );
  return (
    <Section id="profile" title="Profile">
      <IntentForm intent="profile">
        <ReplyMessage reply={reply} />
        {user.role === "client" ? (
          <>
            {field("businessName", "Business name", user.businessName, { autoComplete: "organization", required: true, maxLength: 200 })}
            {field("phone", "Phone", user.phone, { type: "tel", autoComplete: "tel", required: true, maxLength: 40 })}
            {field("website", "Website (optional)", user.website, { type: "url", autoComplete: "url", placeholder: "https://" })}
          </>
        ) : user.role === "ambassador" ? (
          <>
            {field("name", "Name", user.name, { autoComplete: "name", required: true, maxLength: 200 })}
            {field("phone", "Phone", user.phone, { type: "tel", autoComplete: "tel", required: true, maxLength: 40 })}
            <p className="text-sm text-slate-700">
              Referral link ID: <strong>{user.referralCode}</strong> (it cannot change: your links keep working).
            </p>
          </>
        ) : (
          field("name", "Name", user.name, { autoComplete: "name", required: true, maxLength: 200 })
        )}
        <Submit intent="profile" pendingLabel="Saving…">
          Save profile
        </Submit>
      </IntentForm>
    </Section>
  );
}

function EmailSection({ email, reply }: { email: string; reply: FormReply | null }) {
  return (
    <Section
      id="email"
      title="E-mail address"
      lead={`You sign in with ${email}. A new address must be confirmed from a link we send to it.`}
    >
      <IntentForm intent="change-email">
        <ReplyMessage reply={reply} />
        <ReplyField reply={reply} id="email-new" name="newEmail" type="email" label="New e-mail address" autoComplete="email" />
        <ReplyField
          reply={reply}
          id="email-password"
          name="currentPassword"
          type="password"
          label="Current password"
          autoComplete="current-password"
        />
        <Submit intent="change-email" pendingLabel="Sending…">
          Send confirmation link
        </Submit>
      </IntentForm>
    </Section>
  );
}

function PasswordSection({ minPassword, reply, done }: { minPassword: number; reply: FormReply | null; done: string | null }) {
  return (
    <Section id="password" title="Password" lead="Changing it signs you out on every other device.">
      <IntentForm intent="change-password">
        <ReplyMessage reply={reply} />
        {done ? <FormMessage success={done} /> : null}
        <ReplyField
          reply={reply}
          id="password-current"
          name="currentPassword"
          type="password"
          label="Current password"
          autoComplete="current-password"
        />
        <ReplyField
          reply={reply}
          id="password-new"
          name="newPassword"
          type="password"
          label="New password"
          autoComplete="new-password"
          hint={`At least ${minPassword} characters.`}
        />
        <ReplyField
          reply={reply}
          id="password-confirm"
          name="confirmPassword"
          type="password"
          label="Repeat the new password"
          autoComplete="new-password"
        />
        <Submit intent="change-password" pendingLabel="Changing…">
          Change password
        </Submit>
      </IntentForm>
    </Section>
  );
}

function SessionsSection({ sessions, reply }: { sessions: LoaderData["sessions"]; reply: FormReply | null }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Section id="sessions" title="Where you are signed in">
      <ReplyMessage reply={reply} />
      <ul className="mt-2 divide-y divide-slate-200" aria-label="Active sessions">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="font-medium">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">This device</span>
                ) : null}
              </p>
              <p className="text-sm text-slate-700">
                {s.ipAddress ? `IP ${s.ipAddress} · ` : ""}Last active <LocalDateTime value={s.lastActiveAt} />
              </p>
            </div>
            {s.current ? null : (
              <ConfirmAction
                intent="revoke-session"
                id={s.id}
                label="Sign out"
                subject={s.device}
                question="Sign out this session? Its next page load goes to the sign-in page."
                confirmLabel="Yes, sign out"
                pendingLabel="Signing out…"
              />
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div className="mt-4">
          <ConfirmAction
            intent="revoke-other-sessions"
            id="all"
            label="Sign out everywhere else"
            question={`Sign out the ${others} other session${others === 1 ? "" : "s"}? This device stays signed in.`}
            confirmLabel="Yes, sign out the others"
            pendingLabel="Signing out…"
          />
        </div>
      ) : null}
    </Section>
  );
}

function TwoFactorSection({
  twoFactor,
  setupRequired,
  done,
  reply,
}: {
  twoFactor: LoaderData["twoFactor"];
  setupRequired: boolean;
  done: string | null;
  reply: FormReply | undefined;
}) {
  const start = replyFor(reply, "start-two-factor");
  const confirm = replyFor(reply, "confirm-two-factor");
  const disable = replyFor(reply, "disable-two-factor");
  const cancel = replyFor(reply, "cancel-two-factor");
  return (
    <Section
      id="two-factor"
      title="Two-factor authentication"
      lead="A code from an authenticator app (such as Aegis, Google Authenticator or 1Password) is asked for at each sign-in, after your password."
    >
      {setupRequired ? (
        <p role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          {ACCOUNT_MESSAGES.twoFactorRequired}
        </p>
      ) : null}
      {done ? <FormMessage success={done} /> : null}
      <ReplyMessage reply={cancel} />
      {twoFactor.enabled ? (
        <>
          <p className="font-medium text-green-900">Two-factor authentication is on.</p>
          <h3 className="mt-4 font-semibold">Turn it off</h3>
          <IntentForm intent="disable-two-factor" className="mt-2 flex flex-col gap-4">
            <ReplyMessage reply={disable} />
            <ReplyField
              reply={disable}
              id="disable-password"
              name="password"
              type="password"
              label="Password"
              autoComplete="current-password"
            />
            <ReplyField
              reply={disable}
              id="disable-code"
              name="code"
              label="Code from your app, or a backup code"
              autoComplete="one-time-code"
            />
            <Submit intent="disable-two-factor" pendingLabel="Turning off…">
              Turn off two-factor
            </Submit>
          </IntentForm>
        </>
      ) : twoFactor.pending ? (
        <>
          <ReplyMessage reply={start?.ok ? start : null} />
          <ol className="list-decimal space-y-4 pl-5">
            <li>
              <p>Scan this QR code with your authenticator app:</p>
              <div
                className="mt-2 w-48 max-w-full rounded border border-slate-200 bg-white p-2"
                role="img"
                aria-label="QR code of the two-factor secret"
                // The SVG is drawn on the server by the qrcode library from our own otpauth URI.
                dangerouslySetInnerHTML={{ __html: twoFactor.pending.qrSvg }}
              />
              <p className="mt-2 text-sm">
                Or type this secret into the app:{" "}
                <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">
                  {twoFactor.pending.secret}
                </code>
              </p>
            </li>
            <li>
              <p>Keep these 10 backup codes somewhere safe. Each works once, when you cannot use the app:</p>
              <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Backup codes">
                {twoFactor.pending.backupCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </li>
            <li>
              <IntentForm intent="confirm-two-factor" className="flex flex-col gap-4">
                <ReplyMessage reply={confirm && !confirm.fieldErrors ? confirm : null} />
                <ReplyField
                  reply={confirm}
                  id="confirm-code"
                  name="code"
                  label="Code from your app"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                />
                <Submit intent="confirm-two-factor" pendingLabel="Checking…">
                  Turn on two-factor
                </Submit>
              </IntentForm>
            </li>
          </ol>
          <IntentForm intent="cancel-two-factor" className="mt-4">
            <button type="submit" className="text-sm text-brand-700 underline">
              Cancel setup
            </button>
          </IntentForm>
        </>
      ) : (
        <IntentForm intent="start-two-factor">
          <ReplyMessage reply={start && !start.fieldErrors ? start : null} />
          <ReplyField
            reply={start}
            id="start-password"
            name="password"
            type="password"
            label="Password"
            autoComplete="current-password"
            hint="Your password is checked before the setup starts."
          />
          <Submit intent="start-two-factor" pendingLabel="Starting…">
            Set up two-factor
          </Submit>
        </IntentForm>
      )}
    </Section>
  );
}

function PasskeysSection({ passkeys, reply }: { passkeys: LoaderData["passkeys"]; reply: FormReply | undefined }) {
  const revalidator = useRevalidator();
  const removed = replyFor(reply, "remove-passkey");
  return (
    <Section
      id="passkeys"
      title="Passkeys"
      lead="Sign in with your fingerprint, face or device PIN instead of your password. Passkeys need JavaScript."
    >
      <ReplyMessage reply={removed} />
      {passkeys.length ? (
        <ul className="divide-y divide-slate-200" aria-label="Your passkeys">
          {passkeys.map((p) => {
            const renamed = replyFor(reply, "rename-passkey", p.id);
            return (
              <li key={p.id} className="flex flex-col gap-3 py-3">
                <p className="font-medium">
                  {p.name}
                  {p.createdAt ? (
                    <span className="ml-2 text-sm font-normal text-slate-700">
                      added <LocalDateTime value={p.createdAt} style="date" />
                    </span>
                  ) : null}
                </p>
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                  <IntentForm intent="rename-passkey" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                    <input type="hidden" name="id" value={p.id} />
                    <ReplyMessage reply={renamed && !renamed.fieldErrors ? renamed : null} />
                    <ReplyField
                      reply={renamed}
                      id={`passkey-${p.id}-name`}
                      name="name"
                      label={`New name for ${p.name}`}
                      defaultValue={p.name}
                      maxLength={60}
                    />
                    <button type="submit" className="rounded-md border border-slate-400 px-3 py-2 text-sm font-medium hover:bg-slate-50">
                      Rename
                    </button>
                  </IntentForm>
                  <ConfirmAction
                    intent="remove-passkey"
                    id={p.id}
                    label="Remove"
                    subject={p.name}
                    question="Remove this passkey? It can no longer sign you in."
                    confirmLabel="Yes, remove"
                    pendingLabel="Removing…"
                  />
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-slate-700">You have no passkeys yet.</p>
      )}
      <AddPasskey onAdded={() => revalidator.revalidate()} />
    </Section>
  );
}

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const area = loaderData.user.role === "admin" ? "admin" : loaderData.user.role === "ambassador" ? "ambassador" : "client";
  const reply = actionData as FormReply | undefined;
  const preferences = replyFor(reply, "preferences");
  const sessionsReply = replyFor(reply, "revoke-session") ?? replyFor(reply, "revoke-other-sessions");
  const passwordDone = loaderData.done === ACCOUNT_MESSAGES.passwordChanged ? loaderData.done : null;
  const twoFactorDone = loaderData.done && !passwordDone ? loaderData.done : null;
  return (
    <PortalShell items={navItemsFor(loaderData.user.role, area)} title="Account" signedIn width="medium">
      <PageHeading title="Account settings" lead={`Signed in as ${loaderData.user.email}.`} />
      <div className="flex flex-col gap-6">
        <ProfileSection user={loaderData.user} reply={replyFor(reply, "profile")} />
        <EmailSection email={loaderData.user.email} reply={replyFor(reply, "change-email")} />
        <PasswordSection minPassword={loaderData.minPassword} reply={replyFor(reply, "change-password")} done={passwordDone} />
        <TwoFactorSection twoFactor={loaderData.twoFactor} setupRequired={loaderData.setupRequired} done={twoFactorDone} reply={reply} />
        <PasskeysSection passkeys={loaderData.passkeys} reply={reply} />
        <SessionsSection sessions={loaderData.sessions} reply={sessionsReply} />
        <Section id="notifications" title="Notifications">
          <IntentForm intent="preferences">
            <ReplyMessage reply={preferences} />
            <label className="flex items-start gap-3">
              <input type="checkbox" name="notifyUpdates" defaultChecked={loaderData.notifyUpdates} className="mt-1 h-4 w-4" />
              <span>
                <span className="font-medium">E-mail me about updates</span>
                <span className="block text-sm text-slate-700">
                  Project status changes, accepted meetings, proposals made for you and commission payments. Invoices and password resets
                  are always sent.
                </span>
              </span>
            </label>
            {loaderData.user.role === "ambassador" ? null : (
              <label className="flex items-start gap-3">
                <input type="hidden" name="messagesShown" value="1" />
                <input type="checkbox" name="notifyMessages" defaultChecked={loaderData.notifyMessages} className="mt-1 h-4 w-4" />
                <span>
                  <span className="font-medium">E-mail me about new messages</span>
                  <span className="block text-sm text-slate-700">
                    New messages in your proposals&apos; conversations, at most one e-mail per conversation every 10 minutes.
                  </span>
                </span>
              </label>
            )}
            <Submit intent="preferences" pendingLabel="Saving…">
              Save preferences
            </Submit>
          </IntentForm>
        </Section>
      </div>
    </PortalShell>
  );
}
