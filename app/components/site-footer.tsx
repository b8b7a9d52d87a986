import { owner } from "#app/content/site";
import { ThemeToggle } from "./theme-toggle";

/** Public footer with the owner's contact links. */
export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
        <p>
          © {new Date().getFullYear()} {owner.name}
        </p>
        <ul className="flex gap-4">
          <li>
            <a className="underline hover:text-brand-700" href={`mailto:${owner.email}`}>
              Email
            </a>
          </li>
          <li>
            <a className="underline hover:text-brand-700" href={owner.github} target="_blank" rel="noopener noreferrer">
              GitHub
            </a>
          </li>
          <li>
            <a className="underline hover:text-brand-700" href={owner.linkedin} target="_blank" rel="noopener noreferrer">
              LinkedIn
            </a>
          </li>
        </ul>
        <ThemeToggle />
      </div>
    </footer>
  );
}
