/**
 * Links and forms of table rows at the cost of plain elements (issue #42). React Router's `<Link>`
 * and `<Form>` each resolve their path against the route matches and build their own navigate or
 * submit function on every render (several hooks and JSON round trips of the matches per element):
 * a list of 25 rows with 2–4 links or forms per row spent a fifth of its server render there.
 * {@link ListNavigationProvider} (rendered once by a table) builds navigate, submit, the current
 * location and the page's action URL once; {@link ListLink} and {@link ListForm} inside it render
 * the same `<a>` and `<form>` markup as `<Link>` and `<Form>` and behave the same on click and
 * submit (a client-side navigation or submission; plain HTML without JavaScript). Outside a
 * provider they are `<Link>` and `<Form>` themselves.
 */
import { createContext, startTransition, useContext, useMemo, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { Form, Link, UNSAFE_NavigationContext, useLocation, useNavigate, useSubmit, type Location } from "react-router";
import { useActionHref } from "./action-href";

interface ListNavigation {
  /** The current location (for links that keep the page's query, e.g. a confirmation step). */
  location: Location;
  /** Where the page's forms post (useActionHref). */
  actionHref: string;
  /** A link's click: a client-side navigation to `to`, as `<Link>` does. */
  follow(event: MouseEvent<HTMLAnchorElement>, to: string, preventScrollReset: boolean | undefined): void;
  /** A form's submit: a client-side submission, as `<Form>` does. */
  submit(event: FormEvent<HTMLFormElement>, preventScrollReset: boolean | undefined): void;
}

const ListNavigationContext = createContext<ListNavigation | null>(null);

/** @returns the enclosing table's navigation, or null outside a {@link ListNavigationProvider}. */
export function useListNavigation(): ListNavigation | null {
  return useContext(ListNavigationContext);
}

/** `<Link>`'s test: a plain left click, no modifier key, on a link opening in this tab. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute("target");
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === "_self") &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/** Builds navigate, submit, the location and the action URL once for the rows below it. */
export function ListNavigationProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const location = useLocation();
  const actionHref = useActionHref();
  const { useTransitions } = useContext(UNSAFE_NavigationContext) as { useTransitions?: boolean };
  const value = useMemo<ListNavigation>(() => {
    const run = (go: () => void) => (useTransitions ? startTransition(go) : go());
    return {
      location,
      actionHref,
      follow(event, to, preventScrollReset) {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        // As <Link>: a link to the page shown replaces its history entry.
        const replace = `${location.pathname}${location.search}${location.hash}` === to;
        run(() => void navigate(to, { replace, preventScrollReset }));
      },
      submit(event, preventScrollReset) {
        if (event.defaultPrevented) return;
        event.preventDefault();
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const method = (submitter?.getAttribute("formmethod") || "post") as "post";
        const form = event.currentTarget;
        run(() => void submit(submitter || form, { method, preventScrollReset }));
      },
    };
  }, [location, actionHref, navigate, submit, useTransitions]);
  return <ListNavigationContext.Provider value={value}>{children}</ListNavigationContext.Provider>;
}

/**
 * A row's link to an app path (as `<Link to>`; `data-discover` lets the client find the route).
 *
 * @param to - an absolute path with its query, e.g. `/admin/invoices/edit/5`.
 */
export function ListLink({
  to,
  className,
  preventScrollReset,
  children,
  "aria-label": ariaLabel,
}: {
  to: string;
  className?: string;
  preventScrollReset?: boolean;
  children: ReactNode;
  "aria-label"?: string;
}) {
  const list = useListNavigation();
  if (!list) {
    return (
      <Link to={to} className={className} preventScrollReset={preventScrollReset} aria-label={ariaLabel}>
        {children}
      </Link>
    );
  }
  return (
    <a
      className={className}
      aria-label={ariaLabel}
      href={to}
      onClick={(event) => list.follow(event, to, preventScrollReset)}
      data-discover="true"
    >
      {children}
    </a>
  );
}

/**
 * A row's POST form to the page's own action (as `<Form method="post" action={useActionHref()}>`).
 *
 * @param id - lets a button in another cell of the row post this form (`<button form={id}>`), so a
 *   row's buttons share one form and its hidden fields (issue #42).
 */
export function ListForm({
  id,
  className,
  preventScrollReset,
  children,
}: {
  id?: string;
  className?: string;
  preventScrollReset?: boolean;
  children: ReactNode;
}) {
  const list = useListNavigation();
  if (!list) {
    return (
      <ActionForm id={id} className={className} preventScrollReset={preventScrollReset}>
        {children}
      </ActionForm>
    );
  }
  return (
    <form
      id={id}
      method="post"
      action={list.actionHref}
      onSubmit={(event) => list.submit(event, preventScrollReset)}
      className={className}
      data-discover="true"
    >
      {children}
    </form>
  );
}

function ActionForm({
  id,
  className,
  preventScrollReset,
  children,
}: {
  id?: string;
  className?: string;
  preventScrollReset?: boolean;
  children: ReactNode;
}) {
  const actionHref = useActionHref();
  return (
    <Form id={id} method="post" action={actionHref} preventScrollReset={preventScrollReset} className={className}>
      {children}
    </Form>
  );
}
