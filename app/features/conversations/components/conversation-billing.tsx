import { useFetcher } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import type { FormReply } from "#app/lib/form-action.server";
import type { ConversationBillingPerson } from "../participants.server";

/**
 * For an owner, under a proposal's conversation (ADR 022): the organisation's billing people, each
 * with "Add to this conversation" or "Remove from this conversation". A billing person reads and
 * writes only the conversations an owner added them to. Works without JavaScript (a plain post).
 */
export function ConversationBilling({ people, reply }: { people: ConversationBillingPerson[]; reply?: FormReply | null }) {
  return (
    <section aria-labelledby="conversation-billing-title" className="rounded-lg border border-slate-200 p-4">
      <h2 id="conversation-billing-title" className="text-base font-semibold">
        Billing people in this conversation
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Billing people see invoices and payments only. Add one here to let them read and write in this conversation.
      </p>
      <ul className="mt-3 flex flex-col gap-2">
        {people.map((person) => (
          <BillingPersonRow key={person.userId} person={person} />
        ))}
      </ul>
      {reply && (reply.intent === "add-billing" || reply.intent === "remove-billing") && !reply.ok ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {reply.message}
        </p>
      ) : null}
    </section>
  );
}

function BillingPersonRow({ person }: { person: ConversationBillingPerson }) {
  const fetcher = useFetcher<FormReply>();
  const pending = fetcher.state !== "idle";
  const intent = person.added ? "remove-billing" : "add-billing";
  const label = person.added ? "Remove from this conversation" : "Add to this conversation";
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="min-w-0 wrap-anywhere">
        <span className="font-medium">{person.label}</span>
        {person.label !== person.email ? <span className="text-slate-600"> · {person.email}</span> : null}
        {person.added ? <span className="ml-2 rounded bg-green-50 px-1.5 py-0.5 text-xs text-green-800">In this conversation</span> : null}
      </span>
      <fetcher.Form method="post" preventScrollReset className="flex items-center gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="userId" value={person.userId} />
        <button type="submit" className={buttonClass("secondary")} disabled={pending} aria-busy={pending || undefined}>
          {pending ? "Saving…" : label}
          <span className="sr-only"> ({person.label})</span>
        </button>
        {fetcher.data && !pending ? (
          <span role="status" className={fetcher.data.ok ? "text-green-800" : "text-red-700"}>
            {fetcher.data.message}
          </span>
        ) : null}
      </fetcher.Form>
    </li>
  );
}
