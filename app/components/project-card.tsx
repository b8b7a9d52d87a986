import { Link } from "react-router";

/** A project card (spec §2 Home and Projects): title, description, View Project link. */
export function ProjectCard({
  title,
  description,
  to,
  headingLevel = 3,
}: {
  title: string;
  description: string;
  to: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="reveal flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition hover:shadow-md">
      <Heading className="text-xl font-semibold text-slate-900">{title}</Heading>
      <p className="mt-2 flex-1 text-slate-700">{description}</p>
      <Link
        to={to}
        prefetch="intent"
        className="mt-4 inline-flex font-semibold text-brand-700 underline-offset-4 hover:underline"
        aria-label={`View Project: ${title}`}
      >
        View Project →
      </Link>
    </article>
  );
}
