/**
 * A row's actions folded into one **Actions** button when a row has more than two
 * (docs/product.md#phone-layouts): a `<details>` disclosure, so it opens with Enter or Space and
 * without JavaScript; Escape closes it (with JavaScript). The panel opens in the row's flow, so a
 * scrolling table never clips it.
 */
import { useRef, type ReactNode } from "react";

/** The look of one item of a {@link RowMenu} (a link, or a form's button): `menu-item` in app/app.css. */
export const ROW_MENU_ITEM = "menu-item text-slate-800";

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
      <ul className="menu-panel">{children}</ul>
    </details>
  );
}
