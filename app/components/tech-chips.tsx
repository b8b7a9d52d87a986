/** The technologies of a project as small chips (a labelled list, so screen readers hear "Technologies, list, 3 items"). */
export function TechChips({ tech, className = "" }: { tech: string[]; className?: string }) {
  return (
    <ul aria-label="Technologies" className={`flex flex-wrap gap-1.5 ${className}`}>
      {tech.map((t) => (
        <li key={t} className="rounded-chip border border-brand-200 bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">
          {t}
        </li>
      ))}
    </ul>
  );
}
