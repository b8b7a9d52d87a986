/**
 * A row's actions folded into one **Actions** button when a row has more than two
 * (docs/product.md#phone-layouts): a `<details>` disclosure, so it opens with Enter or Space and
 * without JavaScript; Escape closes it (with JavaScript). The panel opens in the row's flow, so a
 * scrolling table never clips it.
 */
import { useRef, type ReactNode } from "react";

/** The look of one item of a {@link RowMenu} (a link, or a form's button). */
export const ROW_MENU_ITEM = "block w-full rounded px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100";

/**
 * @param name - names the row for assistive technology: "Actions for <name>".
 * @param children - the items, each an `<li>`.
 */
export function RowMenu({ name, children }: { name: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  return (
    <details
      ref={ref}
      className="menu"
      onKeyDown={(event) => {
        if (event.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="btn btn-secondary btn-sm" aria-label={`Actions for ${name}`}>
        Actions <span aria-hidden="true">▾</span>
      </summary>
      <ul className="mt-1 w-48 rounded-md border border-slate-200 bg-white p-1 shadow-md">{children}</ul>
    </details>
  );
}
