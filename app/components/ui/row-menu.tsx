/**
 * A row's actions folded into one **Actions** button when a row has more than two
 * (docs/product.md#phone-layouts): a `<details>` disclosure, so it opens with Enter or Space and
 * without JavaScript; Escape closes it (with JavaScript). The panel opens in the row's flow, so a
 * scrolling table never clips it.
 */
import { useRef, type ReactNode } from "react";
import { ListForm } from "./list-navigation";

/** The look of one item of a {@link RowMenu} (a link, or a form's button): `menu-item` in app/app.css; it takes the panel's text colour unless the item adds its own (e.g. `text-red-800`). */
export const ROW_MENU_ITEM = "menu-item";

/**
 * @param name - names the row for assistive technology: "Actions for <name>".
 * @param fields - when the menu has buttons that post: the row's fields (e.g. `{ meetingId: 5 }`),
 *   written once as hidden inputs of one form around the panel; each button then names its own
 *   intent (`<button type="submit" name="intent" value="…">`), so a row carries one form, not one per button (issue #42).
 * @param children - the items, each an `<li>`.
 */
export function RowMenu({ name, fields, children }: { name: string; fields?: Record<string, string | number>; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const panel = <ul className="menu-panel">{children}</ul>;
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
        Actions
      </summary>
      {fields ? (
        <ListForm preventScrollReset>
          {Object.entries(fields).map(([field, value]) => (
            <input key={field} type="hidden" name={field} value={value} />
          ))}
          {panel}
        </ListForm>
      ) : (
        panel
      )}
    </details>
  );
}
