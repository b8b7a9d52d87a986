/**
 * The one confirmation step before destructive or weighty actions (docs/product.md#confirmations;
 * ADR 007): deleting, signing a session out, removing a passkey, marking paid, closing an account.
 * It works with and without JavaScript.
 *
 * Step 1 is a link to the same page with `?confirm=<kind>&target=<id>#confirm` ({@link ConfirmLink});
 * the page then renders {@link ConfirmPanel} in place of the link or next to the row (the loader
 * may read what the action would change, to say so). Step 2 is the panel's POST form, which
 * sends `confirm=yes` with the action's `intent` and fields; a handler may refuse a post without
 * it (`requireConfirmation`). With JavaScript both steps are client-side navigations; without it,
 * plain page loads that scroll to the panel. The action still refuses what the actor may not do:
 * the confirmation is for people, not a guard.
 *
 * - one record, the question in place of its button: {@link ConfirmAction};
 * - a table row, the question as a full-width row under it: {@link ConfirmLink} in the row and
 *   `after={(row) => isConfirming(kind, row.id) ? <ConfirmPanel … /> : null}` with
 *   {@link useIsConfirming}.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigation, useSearchParams } from "react-router";
import { buttonClass } from "./button";
import { useActionHref, useHrefWith } from "./action-href";
import { ListLink, useListNavigation } from "./list-navigation";

/** The anchor of the open confirmation (one at a time: the URL names one). */
const PANEL_ID = "confirm";

/** @returns the confirmation the URL asks for, or null. */
function useConfirmTarget(): { kind: string; target: string } | null {
  const [params] = useSearchParams();
  const kind = params.get("confirm");
  const target = params.get("target");
  return kind && target ? { kind, target } : null;
}

/**
 * @returns a test of whether the URL asks to confirm `kind` for `target` (call it per row;
 *   the hook itself is called once per component).
 */
export function useIsConfirming(): (kind: string, target: string | number) => boolean {
  const current = useConfirmTarget();
  return (kind, target) => current?.kind === kind && current.target === String(target);
}

/** @returns true while a post with this `intent` (and `id`, when given) is in flight. */
export function usePendingIntent(intent: string, id?: number | string): boolean {
  const navigation = useNavigation();
  const data = navigation.formData;
  if (navigation.state !== "submitting" || !data) return false;
  return data.get("intent") === intent && (id === undefined || data.get("id") === String(id));
}

/** Step 1: a link that opens the confirmation for one record. */
export function ConfirmLink({
  kind,
  target,
  children,
  label,
  className,
}: {
  kind: string;
  target: string | number;
  children: ReactNode;
  /** The accessible name when the visible text needs the record's name (it must contain the visible text). */
  label?: string;
  /** Classes instead of the danger button look (e.g. a row menu item). */
  className?: string;
}) {
  // In a table, the table's location (one useLocation per table, not per row; app/components/ui/list-navigation.tsx).
  const list = useListNavigation();
  return list ? (
    <ConfirmLinkAt location={list.location} kind={kind} target={target} label={label} className={className}>
      {children}
    </ConfirmLinkAt>
  ) : (
    <ConfirmLinkHere kind={kind} target={target} label={label} className={className}>
      {children}
    </ConfirmLinkHere>
  );
}

type ConfirmLinkProps = { kind: string; target: string | number; children: ReactNode; label?: string; className?: string };

function ConfirmLinkHere(props: ConfirmLinkProps) {
  return <ConfirmLinkAt location={useLocation()} {...props} />;
}

/** The opener link for `location`: the same page with `?confirm=<kind>&target=<id>#confirm`. */
function ConfirmLinkAt({
  location,
  kind,
  target,
  children,
  label,
  className,
}: ConfirmLinkProps & { location: { pathname: string; search: string } }) {
  const params = new URLSearchParams(location.search);
  params.delete("index");
  params.set("confirm", kind);
  params.set("target", String(target));
  return (
    <ListLink
      to={`${location.pathname}?${params}#${PANEL_ID}`}
      className={className ?? buttonClass("danger")}
      preventScrollReset
      aria-label={label}
    >
      {children}
    </ListLink>
  );
}

/**
 * Step 2: what will happen, and the form that does it (posting `confirm=yes`).
 *
 * @param intent - the action's `intent` value; `fields` are posted with it.
 * @param action - where to post (default: this page without the confirmation parameters).
 */
export function ConfirmPanel({
  title,
  children,
  intent,
  fields,
  confirmLabel,
  pendingLabel = "Deleting…",
  tone = "danger",
  action,
}: {
  title: string;
  children?: ReactNode;
  intent: string;
  fields: Record<string, string | number>;
  confirmLabel: string;
  /** The button's text while the post is in flight. */
  pendingLabel?: string;
  /** "danger" for deletions, "primary" for other confirmed actions (mark paid …). */
  tone?: "danger" | "primary";
  action?: string;
}) {
  const hrefWith = useHrefWith();
  const actionHref = useActionHref();
  const navigation = useNavigation();
  const ref = useRef<HTMLDivElement>(null);
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const [firstField, firstValue] = Object.entries(fields)[0] ?? [];
  const pendingHere = pending && (firstField === undefined || navigation.formData?.get(firstField) === String(firstValue));
  // Move focus to the question when it appears (keyboard and screen-reader users).
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const cancelHref = hrefWith({});
  const postTo = action ?? actionHref;
  const headingId = `confirm-${intent}-${Object.values(fields).join("-")}`;
  return (
    <div
      ref={ref}
      id={PANEL_ID}
      tabIndex={-1}
      role="alertdialog"
      aria-labelledby={headingId}
      className="flex scroll-mt-20 flex-col gap-3 outline-none sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        <p id={headingId} className={`font-semibold ${tone === "danger" ? "text-red-900" : "text-slate-900"}`}>
          {title}
        </p>
        {children ? <div className="mt-1 text-sm text-slate-700">{children}</div> : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <Form method="post" action={postTo} preventScrollReset>
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <button
            type="submit"
            className={buttonClass(tone === "danger" ? "dangerSolid" : "primary")}
            disabled={pendingHere}
            aria-busy={pendingHere || undefined}
          >
            {pendingHere ? pendingLabel : confirmLabel}
          </button>
        </Form>
        <Link to={cancelHref} className={buttonClass("secondary")} preventScrollReset>
          Cancel
        </Link>
      </div>
    </div>
  );
}

/**
 * One record's action behind the confirmation step: the opener link, replaced by the question
 * and its "Yes" button while the URL asks for it. Posts `intent`, `id` and `confirm=yes`.
 *
 * @param intent - the action's intent, e.g. `delete-meeting` (also the confirmation's kind).
 * @param id - the record's id, posted as `id`.
 * @param subject - names the record for assistive technology ("Delete <subject>").
 */
export function ConfirmAction({
  intent,
  id,
  label,
  subject,
  question,
  details,
  confirmLabel,
  pendingLabel = "Deleting…",
  tone = "danger",
}: {
  intent: string;
  id: number | string;
  /** Opener text, e.g. "Delete". */
  label: string;
  subject?: string;
  /** E.g. "Delete this meeting request?" */
  question: string;
  /** What happens, below the question. */
  details?: ReactNode;
  /** E.g. "Yes, delete". */
  confirmLabel: string;
  pendingLabel?: string;
  tone?: "danger" | "primary";
}) {
  const isConfirming = useIsConfirming();
  if (!isConfirming(intent, id)) {
    return (
      <ConfirmLink kind={intent} target={id} label={subject ? `${label} ${subject}` : undefined}>
        {label}
      </ConfirmLink>
    );
  }
  return (
    <div
      className={`w-full rounded-md border p-3 text-sm ${tone === "danger" ? "border-red-200 bg-red-50/40" : "border-slate-300 bg-slate-50"}`}
    >
      <ConfirmPanel title={question} intent={intent} fields={{ id }} confirmLabel={confirmLabel} pendingLabel={pendingLabel} tone={tone}>
        {details}
      </ConfirmPanel>
    </div>
  );
}
