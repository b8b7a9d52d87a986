/**
 * Case-study Markdown on the server (issue #40, docs/product.md#portfolio): markdown-it with raw
 * HTML off (`html: false` escapes any tag the editor typed, so no HTML from the editor reaches the
 * page), its link validation (no `javascript:`, `vbscript:`, `file:` or `data:` links), images off
 * (a screenshot goes through the upload, with its alt text), and external links opening safely.
 */
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false }).disable(["image"]);

// Links that leave the site open in a new tab without handing it `window.opener`.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  if (/^https?:\/\//i.test(token.attrGet("href") ?? "")) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/**
 * Renders one Markdown field to HTML.
 *
 * @param source - Markdown as the admin typed it (any text; raw HTML is shown as text).
 * @returns safe HTML ("" for an empty field).
 */
export function renderMarkdown(source: string): string {
  return source.trim() ? md.render(source) : "";
}
