/**
 * The admin's status control (docs/product.md#proposals-admin-status) and the toast with Undo that
 * answers it, used by the proposal list and the proposal page (intents of
 * `proposal-status-intents.server.ts`).
 */
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { useActionHref } from "#app/components/ui/action-href";
import { ListForm } from "#app/components/ui/list-navigation";
import { Toast } from "#app/components/ui/toast";
import type { ProposalStatus } from "#app/db/enums";
import type { FormReply } from "#app/lib/form-action.server";
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import { ADMIN_PROPOSAL_STATUSES } from "../proposal-rules";

/**
 * The status dropdown of one row: choosing only selects (WCAG 3.2.2); Save (or Enter on the
 * dropdown) applies it, with or without JavaScript (docs/product.md#proposals-admin-status).
 *
 * What it shows, first that applies: the user's choice not sent yet; the status being sent (from
 * Save until the page's data has reloaded); the page's data. React Router shows an action's answer
 * (the toast with Undo) before it reloads the page's data, and a new submission (Undo) drops that
 * reload: a dropdown drawn from the page's data alone (remounted when the status changed) kept a
 * sent choice after Undo, and reset a new choice to the saved one when the late reload arrived.
 */
export function StatusForm({ proposal }: { proposal: { id: number; projectName: string | null; status: ProposalStatus } }) {
  const navigation = useNavigation();
  // This row's Save under way (navigation.formData stays set until the page's data has reloaded).
  const sending =
    navigation.formData?.get("intent") === "set-status" && navigation.formData.get("proposalId") === String(proposal.id)
      ? String(navigation.formData.get("status"))
      : null;
  const saving = sending !== null && navigation.state === "submitting";
  const [choice, setChoice] = useState<string | null>(null);
  // The choice is being sent: from now on the submission says what is shown.
  if (choice !== null && choice === sending) setChoice(null);
  const id = `status-${proposal.id}`;
  const name = proposal.projectName || `proposal #${proposal.id}`;
  const isAdminStatus = (ADMIN_PROPOSAL_STATUSES as readonly string[]).includes(proposal.status);
  return (
    <ListForm preventScrollReset className="flex min-w-40 flex-wrap items-center gap-2">
      <input type="hidden" name="intent" value="set-status" />
      <input type="hidden" name="proposalId" value={proposal.id} />
      <label htmlFor={id} className="sr-only">
        Status of {name}
      </label>
      <select
        id={id}
        name="status"
        value={choice ?? sending ?? proposal.status}
        onChange={(event) => setChoice(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
        className="rounded-md border border-slate-400 bg-white px-2 py-1 text-sm"
      >
        {isAdminStatus ? null : (
          <option value={proposal.status} disabled>
            {PROPOSAL_STATUS_LABELS[proposal.status]}
          </option>
        )}
        {ADMIN_PROPOSAL_STATUSES.map((s) => (
          <option key={s} value={s}>
            {PROPOSAL_STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      <button type="submit" className={buttonClass("secondary")} disabled={saving} aria-label={`Save new status — ${name}`}>
        {saving ? "Saving…" : "Save"}
      </button>
    </ListForm>
  );
}

/** The toast after a status change: its sentence and, for a change, Undo (a real reverse change). */
export function StatusToast({ reply }: { reply: FormReply | undefined }) {
  const actionHref = useActionHref();
  const navigation = useNavigation();
  const undoing = navigation.state === "submitting" && navigation.formData?.get("intent") === "undo-status";
  return (
    <Toast
      message={reply?.message || null}
      messageKey={reply ?? null}
      tone={reply?.ok === false ? "error" : "success"}
      seconds={10}
      action={
        reply?.undo ? (
          <Form method="post" action={actionHref} preventScrollReset>
            <input type="hidden" name="intent" value={reply.undo.intent} />
            {Object.entries(reply.undo.fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className={buttonClass("secondary")} disabled={undoing}>
              {undoing ? "Undoing…" : "Undo"}
            </button>
          </Form>
        ) : null
      }
    />
  );
}
