/**
 * What a case-study page shows (issue #40): its content with the Markdown fields rendered to safe
 * HTML on the server and each screenshot resolved to its responsive image — the same for the
 * public page and the admin's preview of the draft, so the preview is exactly what publishing shows.
 */
import type { ResponsiveImage } from "#app/content/media";
import type { CaseStudyContent, CaseStudyImageRef } from "#app/db/schema";
import { staticScreenshot } from "#app/features/site/media.server";
import { imageUrl } from "./images.server";
import { renderMarkdown } from "./markdown.server";

/** A case study ready to render. */
export interface CaseStudyView {
  id: number;
  title: string;
  slug: string;
  summary: string;
  role: string;
  timeline: string;
  outcome: string;
  color: string;
  tech: string[];
  features: string[];
  github: string | null;
  live: string | null;
  /** Rendered, sanitised HTML. */
  html: { description: string; problem: string; solution: string; impact: string };
  screenshots: { image: ResponsiveImage; alt: string }[];
}

/** @returns the responsive image of a screenshot reference. */
export function screenshotImage(ref: CaseStudyImageRef): ResponsiveImage {
  if (ref.imageId !== undefined) {
    return {
      src: imageUrl(ref.imageId, "1280.jpg"),
      width: ref.width,
      height: ref.height,
      avif: "",
      webp: `${imageUrl(ref.imageId, "640.webp")} 640w, ${imageUrl(ref.imageId, "1280.webp")} 1280w`,
    };
  }
  return staticScreenshot({ file: ref.file ?? "missing.svg", width: ref.width, height: ref.height });
}

/** @returns the page's view of one content copy (published, or the draft for the preview). */
export function caseStudyView(id: number, content: CaseStudyContent): CaseStudyView {
  return {
    id,
    title: content.title,
    slug: content.slug,
    summary: content.summary,
    role: content.role,
    timeline: content.timeline,
    outcome: content.outcome,
    color: content.color,
    tech: content.tech,
    features: content.features,
    github: content.github,
    live: content.live,
    html: {
      description: renderMarkdown(content.description),
      problem: renderMarkdown(content.problem),
      solution: renderMarkdown(content.solution),
      impact: renderMarkdown(content.impact),
    },
    screenshots: content.images.map((ref) => ({ image: screenshotImage(ref), alt: ref.alt })),
  };
}
