/**
 * A destructive action behind a confirmation step (docs/product.md#confirmations: deleting asks for confirmation
 * first). Built on `<details>`, so it works without JavaScript: "Delete" opens the question,
 * "Yes, delete" posts `intent`, `id` and `confirm=yes` (the action refuses a post without
 * it). With JavaScript a Cancel button closes it again.
 */
import { useRef } from "react";
import { Form, useNavigation } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";

/** @returns true while a post with this `intent` (and `id`, when given) is in flight. */
export function usePendingIntent(intent: string, id?: number | string): boolean {
  const navigation = useNavigation();
  const data = navigation.formData;
  if (navigation.state !== "submitting" || !data) return false;
  return data.get("intent") === intent && (id === undefined || data.get("id") === String(id));
}

/**
 * @param intent - the action's intent, e.g. `delete-meeting`.
 * @param id - the record's id, posted as `id`.
 * @param subject - names the record for screen readers ("Delete <subject>").
 */
export function ConfirmAction({
  intent,
  id,
  label,
  subject,
  question,
  confirmLabel,
  pendingLabel = "Deleting…",
}: {
  intent: string;
  id: number | string;
  /** Opener text, e.g. "Delete". */
  label: string;
  subject?: string;
  /** E.g. "Delete this meeting? This cannot be undone." */
  question: string;
  /** E.g. "Yes, delete". */
  confirmLabel: string;
  pendingLabel?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const hydrated = useHydrated();
  const pending = usePendingIntent(intent, id);
  return (
    <details ref={ref} className="group">
      <summary className="inline-flex cursor-pointer list-none items-center rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 [&::-webkit-details-marker]:hidden">
        {label}
        {subject ? <span className="sr-only"> {subject}</span> : null}
      </summary>
      <div className="mt-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
        <p className="text-red-900">{question}</p>
        <Form method="post" className="mt-2 flex flex-wrap gap-2">
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          <button
            type="submit"
            name="confirm"
            value="yes"
            disabled={pending}
            aria-busy={pending || undefined}
            className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800 disabled:cursor-progress disabled:opacity-70"
          >
            {pending ? pendingLabel : confirmLabel}
          </button>
          {hydrated ? (
            <button
              type="button"
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-slate-800 hover:bg-slate-50"
              onClick={() => ref.current?.removeAttribute("open")}
            >
              Cancel
            </button>
          ) : null}
        </Form>
      </div>
    </details>
  );
}
