/**
 * A case study's Open Graph image (issue #40): 1200 × 630 PNG made with sharp from an SVG card —
 * the project's colour, its title and summary, the owner's name — when the case study is
 * published (kept in `case_study.og_image`, served at `/portfolio/og/<id>.png`).
 */
import { owner } from "#app/content/site";
import type { CaseStudyContent } from "#app/db/schema";
import { loadSharp } from "#app/lib/sharp.server";

const WIDTH = 1200;
const HEIGHT = 630;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Breaks `text` into at most `maxLines` lines of about `perLine` characters (the last one ends with … when cut). */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  const words = text.split(/\s+/).filter(Boolean);
  for (const [i, word] of words.entries()) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = "";
      if (lines.length === maxLines) {
        lines[maxLines - 1] = `${lines[maxLines - 1]!.replace(/[\s,.;:]+$/, "")}…`;
        return lines;
      }
    }
    line = line ? `${line} ${word}` : word;
    if (i === words.length - 1) lines.push(line);
  }
  return lines.slice(0, maxLines);
}

/**
 * Renders the card.
 *
 * @returns PNG bytes, 1200 × 630.
 */
export async function renderOgImage(content: Pick<CaseStudyContent, "title" | "summary" | "color">): Promise<Uint8Array> {
  const title = wrapText(content.title, 28, 2);
  const summary = wrapText(content.summary, 58, 3);
  const color = /^#[0-9a-f]{6}$/i.test(content.color) ? content.color : "#4338ca";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="100%" height="100%" fill="#ffffff"/>
  <rect width="100%" height="24" fill="${color}"/>
  <rect x="0" y="${HEIGHT - 24}" width="100%" height="24" fill="${color}"/>
  <text x="80" y="120" font-family="DejaVu Sans, sans-serif" font-size="28" font-weight="bold" fill="${color}">CASE STUDY</text>
  ${title.map((line, i) => `<text x="80" y="${210 + i * 78}" font-family="DejaVu Sans, sans-serif" font-size="64" font-weight="bold" fill="#0f172a">${escape(line)}</text>`).join("\n  ")}
  ${summary.map((line, i) => `<text x="80" y="${230 + title.length * 78 + i * 44}" font-family="DejaVu Sans, sans-serif" font-size="30" fill="#334155">${escape(line)}</text>`).join("\n  ")}
  <text x="80" y="${HEIGHT - 70}" font-family="DejaVu Sans, sans-serif" font-size="30" font-weight="bold" fill="#0f172a">${escape(owner.name)}</text>
</svg>`;
  const sharp = await loadSharp();
  return new Uint8Array(await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}
