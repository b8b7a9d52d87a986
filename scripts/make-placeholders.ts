/**
 * Writes the deliberate-looking placeholders of the public site (docs/product.md#public-site):
 * - a screenshot placeholder per case-study image listed in `app/content/projects.ts`
 *   (`public/screenshots/<slug>-<n>.svg`): a browser-window device frame in the project's
 *   colour with its name and the screen's number;
 * - the portrait placeholder `public/owner/portrait-placeholder.svg` (the owner's initials).
 *
 * Usage: `npx tsx scripts/make-placeholders.ts`. A file is only (re)written when it is missing
 * or is one of these placeholders (it carries the `data-placeholder` mark): the owner's real
 * images are never touched.
 */
import fs from "node:fs";
import path from "node:path";
import { projects } from "../app/content/projects";
import { owner } from "../app/content/site";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function writePlaceholder(file: string, svg: string) {
  if (fs.existsSync(file) && !fs.readFileSync(file, "utf8").includes("data-placeholder")) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, svg);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

/** A 1280×800 browser window: title bar with dots and an address, a sidebar and content blocks. */
function screenshotSvg(title: string, color: string, n: number, total: number, slug: string): string {
  const bars = [0, 1, 2, 3]
    .map(
      (i) =>
        `<rect x="${360 + (i % 2) * 420}" y="${300 + Math.floor(i / 2) * 200}" width="380" height="160" rx="16" fill="#fff" stroke="#e2e8f0" stroke-width="2"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" data-placeholder="true" width="1280" height="800" viewBox="0 0 1280 800" role="img" aria-label="${escape(title)} — screen ${n} of ${total} (placeholder)">
<rect width="1280" height="800" fill="${color}"/>
<rect x="40" y="40" width="1200" height="760" rx="20" fill="#f8fafc"/>
<rect x="40" y="40" width="1200" height="64" rx="20" fill="#e2e8f0"/><rect x="40" y="84" width="1200" height="20" fill="#e2e8f0"/>
<circle cx="84" cy="72" r="9" fill="#f87171"/><circle cx="114" cy="72" r="9" fill="#fbbf24"/><circle cx="144" cy="72" r="9" fill="#34d399"/>
<rect x="300" y="56" width="680" height="32" rx="16" fill="#fff"/><text x="640" y="79" text-anchor="middle" font-family="system-ui,sans-serif" font-size="18" fill="#475569">${escape(slug)}.example.com</text>
<rect x="40" y="104" width="280" height="696" fill="${color}" opacity="0.12"/>
${[0, 1, 2, 3, 4].map((i) => `<rect x="72" y="${150 + i * 56}" width="${180 - (i % 3) * 30}" height="20" rx="10" fill="${color}" opacity="${i === n % 5 ? 0.9 : 0.35}"/>`).join("")}
${titleLines(title)
  .map(
    (line, i, all) =>
      `<text x="360" y="${all.length > 1 ? 170 + i * 46 : 200}" font-family="system-ui,sans-serif" font-size="40" font-weight="700" fill="#0f172a">${escape(line)}</text>`,
  )
  .join("")}
<text x="360" y="252" font-family="system-ui,sans-serif" font-size="24" fill="#475569">Screen ${n} of ${total} · screenshot coming soon</text>
${bars}
<rect x="380" y="330" width="${120 + n * 30}" height="24" rx="12" fill="${color}" opacity="0.8"/>
</svg>
`;
}

/** The title in at most two lines of at most 30 characters (the content area is 840 px wide at 40 px). */
function titleLines(title: string): string[] {
  const lines: string[] = [""];
  for (const word of title.split(/\s+/)) {
    const last = lines[lines.length - 1]!;
    if (last && `${last} ${word}`.length > 30) lines.push(word);
    else lines[lines.length - 1] = last ? `${last} ${word}` : word;
  }
  return lines.length > 2 ? [lines[0]!, `${lines.slice(1).join(" ").slice(0, 28)}…`] : lines;
}

function portraitSvg(initials: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" data-placeholder="true" width="480" height="480" viewBox="0 0 480 480" role="img" aria-label="${escape(owner.portraitAlt)} (placeholder)">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5b3fd6"/><stop offset="1" stop-color="#1e1b4b"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#g)"/>
<circle cx="240" cy="190" r="86" fill="#fff" opacity="0.16"/><path d="M84 480c14-96 80-150 156-150s142 54 156 150z" fill="#fff" opacity="0.16"/>
<text x="240" y="272" text-anchor="middle" font-family="system-ui,sans-serif" font-size="148" font-weight="700" fill="#fff" letter-spacing="-4">${escape(initials)}</text>
</svg>
`;
}

for (const project of projects) {
  project.images.forEach((image, i) => {
    const file = path.resolve("public/screenshots", image.file);
    writePlaceholder(file, screenshotSvg(project.title, project.color, i + 1, project.images.length, project.slug));
  });
}
const initials = owner.name
  .split(/\s+/)
  .map((w) => w[0])
  .join("")
  .slice(0, 2);
writePlaceholder(path.resolve("public/owner/portrait-placeholder.svg"), portraitSvg(initials));
