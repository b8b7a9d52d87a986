/**
 * Writes labelled SVG placeholder screenshots for every case study image listed in
 * `app/content/projects.ts` that does not exist yet in `public/screenshots/`.
 * Usage: `npx tsx scripts/make-placeholders.ts`. Existing files (the owner's real
 * screenshots) are never overwritten.
 */
import fs from "node:fs";
import path from "node:path";
import { projects } from "../app/content/projects";

const dir = path.resolve("public/screenshots");
fs.mkdirSync(dir, { recursive: true });
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
for (const project of projects) {
  project.images.forEach((image, i) => {
    const file = path.join(dir, image.file);
    if (fs.existsSync(file)) return;
    const hue = (projects.indexOf(project) * 70 + i * 12) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}" viewBox="0 0 ${image.width} ${image.height}"><rect width="100%" height="100%" fill="hsl(${hue} 45% 92%)"/><rect x="40" y="40" width="${image.width - 80}" height="${image.height - 80}" rx="24" fill="none" stroke="hsl(${hue} 35% 55%)" stroke-width="4" stroke-dasharray="16 12"/><text x="50%" y="46%" text-anchor="middle" font-family="system-ui,sans-serif" font-size="56" font-weight="700" fill="hsl(${hue} 40% 25%)">${escape(project.title)}</text><text x="50%" y="56%" text-anchor="middle" font-family="system-ui,sans-serif" font-size="36" fill="hsl(${hue} 30% 30%)">Screenshot ${i + 1} — placeholder</text></svg>\n`;
    fs.writeFileSync(file, svg);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  });
}
