import { Fragment } from "react";

const URL_PATTERN = /https:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/**
 * A message's text as plain text (docs/product.md#conversations): line breaks kept, https URLs made
 * links (opening in a new tab, no referrer) — never HTML, Markdown or images.
 */
export function MessageText({ text }: { text: string }) {
  const parts: (string | { url: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    parts.push(text.slice(last, match.index), { url: match[0] });
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return (
    <p className="whitespace-pre-wrap wrap-anywhere text-slate-900">
      {parts.map((part, i) =>
        typeof part === "string" ? (
          <Fragment key={i}>{part}</Fragment>
        ) : (
          <a key={i} href={part.url} target="_blank" rel="noopener noreferrer nofollow" className="text-brand-700 underline">
            {part.url}
          </a>
        ),
      )}
    </p>
  );
}
