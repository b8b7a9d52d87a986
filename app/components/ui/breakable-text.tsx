/**
 * Text that may be too long for its column (an e-mail address, a long name): it wraps at
 * sensible points first — after "@", ".", "-", "_", "/" (a `<wbr>` there) — and anywhere only as
 * a last resort (docs/product.md#phone-layouts).
 */
import { Fragment } from "react";

/** @param text - the text, e.g. "someone.with.a.long.name@example.com". */
export function BreakableText({ text, className }: { text: string; className?: string }) {
  const parts = text.split(/(?<=[@._\-/])/);
  return (
    <span className={`wrap-text ${className ?? ""}`}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
