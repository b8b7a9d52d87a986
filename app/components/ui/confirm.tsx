/**
 * Confirmation before destructive actions (docs/product.md#confirmations: deleting a proposal, meeting, user or
 * invoice asks for confirmation first), with and without JavaScript.
 *
 * Step 1 is a link to the same page with `?confirm=<kind>&target=<id>`; the page then
 * renders {@link ConfirmPanel} next to the row. Step 2 is the panel's POST form. With
 * JavaScript both steps are client-side navigations; without it, plain page loads. The
 * action still refuses what the actor may not do: the confirmation is for people, not a guard.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigation, useSearchParams } from "react-router";
import { buttonClass } from "./button";
import { useActionHref, useHrefWith } from "./data-table";

/** @returns the confirmation the URL asks for, or null. */
export function useConfirmTarget(): { kind: string; target: string } | null {
  const [params] = useSearchParams();
  const kind = params.get("confirm");
  const target = params.get("target");
  return kind && target ? { kind, target } : null;
}

/** True when the URL asks to confirm `kind` for `target`. */
export function useIsConfirming(kind: string, target: string | number): boolean {
  const current = useConfirmTarget();
  return current?.kind === kind && current.target === String(target);
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
  label?: string;
  /** Classes instead of the danger button look (e.g. a row menu item). */
  className?: string;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("index");
  params.set("confirm", kind);
  params.set("target", String(target));
  return (
    <Link to={`${location.pathname}?${params}`} className={className ?? buttonClass("danger")} preventScrollReset aria-label={label}>
      {children}
    </Link>
  );
}

/**
 * Step 2: what will happen, and the form that does it.
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
      tabIndex={-1}
      role="alertdialog"
      aria-labelledby={headingId}
      className="flex flex-col gap-3 outline-none sm:flex-row sm:items-center sm:justify-between"
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
