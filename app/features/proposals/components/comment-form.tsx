import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { usePendingIntent } from "#app/components/ui/confirm";
import { SubmitButton, TextareaField } from "#app/components/ui/field";
import type { FormReply } from "#app/lib/form-action.server";

/** What differs between the proposal comment forms (decline reason, revision request). */
export type CommentFormProps = {
  /** The action's intent, posted as `intent`. */
  intent: string;
  /** The proposal's id, posted as `id`. */
  proposalId: number;
  /** The disclosure's visible toggle text, e.g. "Decline". */
  summary: string;
  /** Classes of the `<summary>` toggle. */
  summaryClassName: string;
  /** Classes of the `<details>` element (none by default). */
  detailsClassName?: string;
  /** The textarea's id (unique on the page) and its label, name, rows and maximum length in characters. */
  field: { id: string; label: string; name: string; rows: number; maxLength: number };
  /** The message shown next to the textarea; when set, the disclosure renders open (works without JavaScript). */
  error: string | null;
  /** The submit button's label, its label while the form is submitting, and its classes. */
  submit: { label: string; pendingLabel: string; className: string };
  /** The last reply of this intent: when it succeeded the form is emptied (the comment now shows elsewhere). */
  clearAfter?: FormReply | null;
};

/**
 * A proposal comment behind a disclosure: a `<details>` toggle that opens a form with one required
 * textarea and a submit button showing its pending label while this intent for this proposal posts.
 * Used for the client's decline reason (docs/product.md#proposals-approval) and revision request
 * (docs/product.md#proposals-revision).
 *
 * @param props - see {@link CommentFormProps}.
 * @returns the disclosure element.
 */
export function CommentForm({
  intent,
  proposalId,
  summary,
  summaryClassName,
  detailsClassName,
  field,
  error,
  submit,
  clearAfter,
}: CommentFormProps) {
  const pending = usePendingIntent(intent, proposalId);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (clearAfter?.ok) formRef.current?.reset();
  }, [clearAfter]);
  return (
    <details className={detailsClassName} open={error ? true : undefined}>
      <summary className={summaryClassName}>{summary}</summary>
      <Form ref={formRef} method="post" className="mt-2 flex flex-col gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={proposalId} />
        <TextareaField {...field} required errors={error ? [error] : undefined} />
        <div>
          <SubmitButton pending={pending} pendingLabel={submit.pendingLabel} className={submit.className}>
            {submit.label}
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}
