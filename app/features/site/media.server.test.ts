import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findProject } from "#app/content/projects";

/** Loads media.server.ts afresh (it caches what it read) with `public/` in a temporary folder. */
async function mediaIn(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, "public", file)), { recursive: true });
    fs.writeFileSync(path.join(dir, "public", file), text);
  }
  process.chdir(dir);
  vi.resetModules();
  return import("./media.server");
}

describe("public site media", () => {
  const cwd = process.cwd();
  beforeEach(() => vi.stubEnv("NODE_ENV", "development"));
  afterEach(() => {
    process.chdir(cwd);
    vi.unstubAllEnvs();
  });

  it("hides the résumé link until public/owner/resume.pdf exists, and falls back to the placeholders", async () => {
    const none = await mediaIn({});
    expect(none.resumeHref()).toBeNull();
    expect(none.portraitImage()).toEqual({ src: "/owner/portrait-placeholder.svg", width: 480, height: 480, avif: "", webp: "" });
    expect(none.screenshotImages(findProject("project1")!)[0]).toMatchObject({ src: "/screenshots/project1-1.svg", width: 1280 });

    const dropped = await mediaIn({ "owner/resume.pdf": "%PDF-1.4", "owner/portrait.jpg": "x", "screenshots/project1-1.png": "x" });
    expect(dropped.resumeHref()).toBe("/owner/resume.pdf");
    expect(dropped.portraitImage().src).toBe("/owner/portrait.jpg");
    expect(dropped.screenshotImages(findProject("project1")!).map((s) => s.src)).toEqual([
      "/screenshots/project1-1.png",
      "/screenshots/project1-2.svg",
      "/screenshots/project1-3.svg",
    ]);
  });

  it("uses the build's AVIF/WebP manifest when there is one", async () => {
    const portrait = {
      src: "/owner/portrait.jpg",
      width: 480,
      height: 480,
      avif: "/generated/portrait-160.avif 160w",
      webp: "/generated/portrait-160.webp 160w",
    };
    const media = await mediaIn({ "generated/manifest.json": JSON.stringify({ portrait, screenshots: {} }) });
    expect(media.portraitImage()).toEqual(portrait);
  });
});
