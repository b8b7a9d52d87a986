/**
 * The referral link as selectable text with a Copy button (clipboard API) that says
 * "Copied" for a moment. Without JavaScript (or clipboard permission) the text stays
 * selectable; the button only appears once the page is hydrated.
 */
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";

/** @param value - the text to copy; @param label - accessible name of the text. */
export function CopyLink({ value, label }: { value: string; label: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const textRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2_000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // No clipboard access: select the text so the user can copy it themselves.
      const node = textRef.current;
      if (node) window.getSelection()?.selectAllChildren(node);
      setState("failed");
    }
  }

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <code
        ref={textRef}
        aria-label={label}
        className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm wrap-text select-all"
      >
        {value}
      </code>
      {hydrated ? (
        <button
          type="button"
          onClick={copy}
          className={`shrink-0 rounded-md px-4 py-2 text-sm font-semibold text-white ${state === "copied" ? "bg-green-700" : "bg-brand-700 hover:bg-brand-800"}`}
        >
          {state === "copied" ? "Copied" : "Copy link"}
        </button>
      ) : null}
      <span role="status" className="sr-only">
        {state === "copied" ? "Link copied to the clipboard" : state === "failed" ? "Press Ctrl+C to copy the selected link" : ""}
      </span>
      {state === "failed" ? <span className="text-sm text-slate-700">Press Ctrl+C (⌘C) to copy.</span> : null}
    </div>
  );
}
