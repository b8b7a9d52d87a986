import { Form, Link } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, useIsConfirming, usePendingIntent } from "#app/components/ui/confirm";
import { useHrefWith } from "#app/components/ui/data-table";
import { ReplyField, ReplyMessage, Section } from "#app/features/users/components/account/account-form";
import type { FormReply } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";
import { formatCalendarDate } from "#app/lib/dates";
import { PRIVACY_MESSAGES } from "../privacy.messages";

/** An unpaid balance closing would leave behind (from the page's loader). */
export interface UnpaidOnClosingView {
  invoices: Array<{ number: string; balanceCents: number; dueDate: string }>;
  totalCents: number;
  currency: string;
}

/**
 * Closing the account (docs/product.md#closing-an-account): what happens, then — behind the
 * confirmation step — the password (and a code when two-factor is on) and "Yes, close my account".
 * An unpaid balance is said first (issue #41): its amount and invoices before the button, and a box
 * to tick in the confirmation (the server refuses without it).
 */
export function CloseAccountSection({
  twoFactor,
  reply,
  unpaid = null,
}: {
  twoFactor: boolean;
  reply: FormReply | null;
  unpaid?: UnpaidOnClosingView | null;
}) {
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
      {unpaid ? (
        <div
          role="note"
          className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="unpaid-on-closing"
        >
          <p className="font-semibold">
            You have an unpaid balance of {formatCents(unpaid.totalCents, unpaid.currency)}. Closing your account does not cancel it.
          </p>
          <ul className="mt-1 list-disc pl-5">
            {unpaid.invoices.map((i) => (
              <li key={i.number}>
                {i.number}: {formatCents(i.balanceCents, unpaid.currency)} due {formatCalendarDate(i.dueDate)}
              </li>
            ))}
          </ul>
          <p className="mt-1">
            Pay it first on the{" "}
            <Link to="/invoices" className="font-medium underline">
              Invoices
            </Link>{" "}
            page, or contact us.
          </p>
        </div>
      ) : null}
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
          {unpaid ? <UnpaidAcknowledgement reply={reply} /> : null}
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

/** The box a person with an unpaid balance ticks before closing (its refusal next to it). */
function UnpaidAcknowledgement({ reply }: { reply: FormReply | null }) {
  const error = reply && !reply.ok ? reply.fieldErrors?.acknowledgeUnpaid?.join(" ") : undefined;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        <input
          id="close-acknowledge-unpaid"
          name="acknowledgeUnpaid"
          type="checkbox"
          required
          className="mt-1 h-4 w-4"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "close-acknowledge-unpaid-error" : undefined}
        />
        <label htmlFor="close-acknowledge-unpaid" className="text-sm font-medium text-slate-800">
          {PRIVACY_MESSAGES.unpaidAcknowledge}
        </label>
      </div>
      {error ? (
        <p id="close-acknowledge-unpaid-error" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
