import { Form, Link } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, useIsConfirming, usePendingIntent } from "#app/components/ui/confirm";
import { useHrefWith } from "#app/components/ui/data-table";
import { ReplyField, ReplyMessage, Section } from "#app/features/users/components/account/account-form";
import type { FormReply } from "#app/lib/form-action.server";

/**
 * Closing the account (docs/product.md#closing-an-account): what happens, then — behind the
 * confirmation step — the password (and a code when two-factor is on) and "Yes, close my account".
 */
export function CloseAccountSection({ twoFactor, reply }: { twoFactor: boolean; reply: FormReply | null }) {
  const isConfirming = useIsConfirming();
  const hrefWith = useHrefWith();
  const pending = usePendingIntent("close-account");
  const open = isConfirming("close-account", "me") || Boolean(reply && !reply.ok);
  return (
    <Section id="close-account" title="Close your account">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>Your profile, proposals without an invoice, meetings, sessions, passkeys and two-factor setup are erased.</li>
        <li>
          Invoices and payments are kept as the law requires, with the name and e-mail address they were billed to; nothing else about you.
        </li>
        <li>
          Offers you signed stay with the kept records as evidence of the agreement: the name you typed, your e-mail address, your IP
          address, your browser (user agent) and the time.
        </li>
        <li>You are signed out everywhere, and your e-mail address is free for a new account.</li>
        <li>This cannot be undone. Download your data first if you want a copy.</li>
      </ul>
      {open ? (
        <Form
          method="post"
          id="confirm"
          className="mt-4 flex flex-col gap-4 rounded-md border border-red-200 bg-red-50/40 p-4"
          preventScrollReset
        >
          <p className="font-semibold text-red-900">Close your account for good?</p>
          <ReplyMessage reply={reply} />
          <input type="hidden" name="intent" value="close-account" />
          <input type="hidden" name="confirm" value="yes" />
          <ReplyField reply={reply} id="close-password" name="password" type="password" label="Password" autoComplete="current-password" />
          {twoFactor ? (
            <ReplyField
              reply={reply}
              id="close-code"
              name="code"
              label="Code from your app, or a backup code"
              autoComplete="one-time-code"
            />
          ) : null}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonClass("dangerSolid", "md")} disabled={pending} aria-busy={pending || undefined}>
              {pending ? "Closing…" : "Yes, close my account"}
            </button>
            <Link to={hrefWith({})} className={buttonClass("secondary", "md")} preventScrollReset>
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <div className="mt-4">
          <ConfirmLink kind="close-account" target="me">
            Close my account…
          </ConfirmLink>
        </div>
      )}
    </Section>
  );
}
