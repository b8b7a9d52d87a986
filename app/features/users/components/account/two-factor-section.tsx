import { FormMessage } from "#app/components/ui/form";
import type { FormReply } from "#app/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "../../account.messages";
import type { AccountPageData } from "../../account/page.server";
import { IntentForm, ReplyField, ReplyMessage, replyFor, Section, Submit } from "./account-form";

/**
 * Two-factor authentication: set up (password → QR code, secret and backup codes → a first
 * code), cancel a setup, or turn it off (password and a code).
 */
export function TwoFactorSection({
  twoFactor,
  setupRequired,
  done,
  reply,
}: {
  twoFactor: NonNullable<AccountPageData["twoFactor"]>;
  setupRequired: boolean;
  done: string | null;
  reply: FormReply | undefined;
}) {
  const start = replyFor(reply, "start-two-factor");
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
        <TurnOff reply={replyFor(reply, "disable-two-factor")} />
      ) : twoFactor.pending ? (
        <Setup pending={twoFactor.pending} started={start?.ok ? start : null} confirm={replyFor(reply, "confirm-two-factor")} />
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

function TurnOff({ reply }: { reply: FormReply | null }) {
  return (
    <>
      <p className="font-medium text-green-900">Two-factor authentication is on.</p>
      <h3 className="mt-4 font-semibold">Turn it off</h3>
      <IntentForm intent="disable-two-factor" className="mt-2 flex flex-col gap-4">
        <ReplyMessage reply={reply} />
        <ReplyField reply={reply} id="disable-password" name="password" type="password" label="Password" autoComplete="current-password" />
        <ReplyField reply={reply} id="disable-code" name="code" label="Code from your app, or a backup code" autoComplete="one-time-code" />
        <Submit intent="disable-two-factor" pendingLabel="Turning off…">
          Turn off two-factor
        </Submit>
      </IntentForm>
    </>
  );
}

function Setup({
  pending,
  started,
  confirm,
}: {
  pending: NonNullable<NonNullable<AccountPageData["twoFactor"]>["pending"]>;
  started: FormReply | null;
  confirm: FormReply | null;
}) {
  return (
    <>
      <ReplyMessage reply={started} />
      <ol className="list-decimal space-y-4 pl-5">
        <li>
          <p>Scan this QR code with your authenticator app:</p>
          <div
            className="mt-2 w-48 max-w-full rounded border border-slate-200 bg-white p-2"
            role="img"
            aria-label="QR code of the two-factor secret"
            // The SVG is drawn on the server by the qrcode library from our own otpauth URI.
            dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
          />
          <p className="mt-2 text-sm">
            Or type this secret into the app:{" "}
            <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">
              {pending.secret}
            </code>
          </p>
          <p className="mt-1 text-sm">
            On a phone:{" "}
            <a className="text-brand-700 underline" href={pending.uri}>
              open the setup in your authenticator app
            </a>
            .
          </p>
        </li>
        <li>
          <p>Keep these 10 backup codes somewhere safe. Each works once, when you cannot use the app:</p>
          <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Backup codes">
            {pending.backupCodes.map((code) => (
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
  );
}
