/**
 * The settings sections that have a page of their own (docs/product.md#settings), linked from
 * `/admin/settings`: one line per section, added by the issue that owns it.
 */
import { Link } from "react-router";

const SECTIONS = [
  { to: "/admin/settings/availability", label: "Availability", text: "your hours and time zone for client meetings" },
] as const;

export function SettingsSections() {
  return (
    <nav aria-label="Settings sections" className="mb-6 max-w-xl rounded-lg border border-slate-200 p-4">
      <ul className="flex flex-col gap-2">
        {SECTIONS.map((s) => (
          <li key={s.to}>
            <Link to={s.to} className="font-medium text-brand-700 underline underline-offset-4">
              {s.label}
            </Link>
            <span className="text-slate-700">: {s.text}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}
