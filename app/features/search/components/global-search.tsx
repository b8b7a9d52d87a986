/**
 * The sidebar's search field (issue #41, docs/product.md#admin-search), an ARIA 1.2 combobox: typing
 * two characters or more loads `/admin/search?q=` (debounced) into a listbox under the field;
 * ArrowDown / ArrowUp move through the options (`aria-activedescendant`, focus stays in the field),
 * Enter opens the active option or, with none, the full results page; Escape closes the list, then
 * clears the field. ⌘K (macOS) or Ctrl+K focuses the field from anywhere in the admin console (or
 * opens /admin/search when the sidebar is folded, on a phone). Without JavaScript it is a GET form
 * to /admin/search.
 */
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { KIND_LABELS, type SearchResult } from "../kinds";

export function GlobalSearch() {
  const fetcher = useFetcher<{ q: string; results: SearchResult[] }>();
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const id = useId();
  const listId = `${id}-results`;
  const term = value.trim();
  const results = term.length >= 2 && fetcher.data ? fetcher.data.results : [];
  const settled = fetcher.state === "idle" && fetcher.data?.q === term.replace(/\s+/g, " ");
  const expanded = open && term.length >= 2 && (results.length > 0 || settled);

  useEffect(() => {
    if (term.length < 2) return;
    const timer = setTimeout(() => void load.current(`/admin/search?q=${encodeURIComponent(term)}`), 150);
    return () => clearTimeout(timer);
  }, [term]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        const input = inputRef.current;
        if (input && input.offsetParent !== null) {
          input.focus();
          input.select();
        } else void navigate("/admin/search");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate]);

  const go = (result: SearchResult) => {
    setOpen(false);
    setActive(-1);
    void navigate(result.href);
  };

  return (
    <form
      method="get"
      action="/admin/search"
      role="search"
      aria-label="Global search"
      onSubmit={(event) => {
        const chosen = expanded ? results[active] : undefined;
        if (chosen) {
          event.preventDefault();
          go(chosen);
        } else setOpen(false);
      }}
      className="relative"
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        Search proposals, clients, invoices and messages
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        type="search"
        name="q"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 && results[active] ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        maxLength={100}
        placeholder="Search  ⌘K"
        value={value}
        data-testid="global-search"
        onChange={(event) => {
          setValue(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            if (!results.length) return;
            event.preventDefault();
            setOpen(true);
            const step = event.key === "ArrowDown" ? 1 : -1;
            setActive((current) => (current < 0 && step < 0 ? results.length - 1 : (current + step + results.length) % results.length));
          } else if (event.key === "Escape") {
            if (expanded) {
              event.preventDefault();
              setOpen(false);
              setActive(-1);
            } else if (value) {
              event.preventDefault();
              setValue("");
            }
          }
        }}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 placeholder:text-slate-600"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Search results"
        hidden={!expanded}
        className="absolute top-full left-0 z-40 mt-1 max-h-[70dvh] w-full overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
      >
        {results.map((result, index) => (
          <li
            key={`${result.kind}-${result.id}`}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            data-testid="search-option"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => go(result)}
            onMouseMove={() => setActive(index)}
            className={`cursor-pointer rounded-md px-3 py-2 text-sm ${index === active ? "bg-brand-50 ring-2 ring-brand-600" : ""}`}
          >
            <span className="block font-medium wrap-anywhere text-slate-900">{result.title || "(no title)"}</span>
            <span className="block text-xs wrap-anywhere text-slate-700">
              {KIND_LABELS[result.kind]} · {result.detail}
            </span>
          </li>
        ))}
        {expanded && results.length === 0 ? (
          <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-700">
            Nothing matches “{term}”.
          </li>
        ) : null}
      </ul>
      <p role="status" className="sr-only">
        {expanded ? (results.length ? `${results.length} results, arrow keys to choose` : "No results") : ""}
      </p>
    </form>
  );
}
