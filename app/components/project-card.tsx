import { Link } from "react-router";
import type { ResponsiveImage } from "#app/content/media";
import { Picture } from "./picture";
import { TechChips } from "./tech-chips";

/** A project card (docs/product.md#public-site): thumbnail, title, description, technology chips, View Project link. */
export function ProjectCard({
  title,
  description,
  tech,
  thumbnail,
  to,
  headingLevel = 3,
  sizes = "(min-width: 768px) 33vw, 100vw",
}: {
  title: string;
  description: string;
  tech: string[];
  thumbnail: ResponsiveImage;
  to: string;
  headingLevel?: 2 | 3;
  sizes?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="reveal flex flex-col overflow-hidden rounded-card border border-slate-200 bg-white shadow-sm transition hover:shadow-md">
      <Picture
        image={thumbnail}
        alt=""
        sizes={sizes}
        className="project-thumb reveal-fade aspect-[16/10] h-auto w-full border-b border-slate-200 object-cover"
      />
      <div className="flex flex-1 flex-col p-6">
        <Heading className="text-xl font-semibold text-slate-900">{title}</Heading>
        <p className="mt-2 flex-1 text-slate-700">{description}</p>
        <TechChips tech={tech} className="mt-4" />
        <Link
          to={to}
          prefetch="intent"
          className="mt-4 inline-flex font-semibold text-brand-700 underline-offset-4 hover:underline"
          aria-label={`View Project: ${title}`}
        >
          View Project →
        </Link>
      </div>
    </article>
  );
}
