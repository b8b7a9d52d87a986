/**
 * The History of a proposal's terms (docs/product.md#offer-versions): each version, newest first,
 * with who made it and when, what changed from the previous one (old → new; long texts as a line
 * diff), the acceptances and "Acceptance of version 3 voided by version 4".
 */
import { LocalDateTime } from "#app/components/local-time";
import { formatCents } from "#app/lib/money";

interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

interface Change {
  field: string;
  label: string;
  old: string;
  new: string;
  lines?: DiffLine[];
}

/** The History as loaders pass it (dates may arrive as strings). */
export interface HistoryView {
  versions: {
    number: number;
    sha256: string;
    createdAt: Date | string;
    createdByName: string;
    totalCents: number;
    currency: string;
    changes: Change[];
    voids: number[];
  }[];
  acceptances: {
    versionNumber: number;
    typedName: string;
    acceptedAt: Date | string;
    voidedAt: Date | string | null;
    voidedByVersion: number | null;
    certificateId: string;
  }[];
}

function LineDiff({ lines }: { lines: DiffLine[] }) {
  return (
    <pre className="mt-1 max-h-80 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 text-xs whitespace-pre-wrap wrap-anywhere">
      {lines.map((line, index) => (
        <span
          key={index}
          className={
            line.kind === "added"
              ? "block bg-green-100 text-green-900"
              : line.kind === "removed"
                ? "block bg-red-100 text-red-900 line-through"
                : "block text-slate-700"
          }
        >
          <span aria-hidden="true">{line.kind === "added" ? "+ " : line.kind === "removed" ? "− " : "  "}</span>
          <span className="sr-only">{line.kind === "added" ? "Added: " : line.kind === "removed" ? "Removed: " : ""}</span>
          {line.text || " "}
        </span>
      ))}
    </pre>
  );
}

/** One version's changes from the previous one. */
export function VersionChanges({ changes }: { changes: Change[] }) {
  if (!changes.length) return <p className="text-sm text-slate-600">No change to the terms.</p>;
  return (
    <dl className="mt-2 flex flex-col gap-2 text-sm">
      {changes.map((c) => (
        <div key={c.field} className="min-w-0">
          <dt className="font-medium text-slate-800">{c.label}</dt>
          <dd className="wrap-anywhere">
            {c.lines ? (
              <LineDiff lines={c.lines} />
            ) : (
              <>
                <del className="text-red-800">{c.old || "—"}</del> → <ins className="text-green-800 no-underline">{c.new || "—"}</ins>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * @param history - the versions (newest first) and acceptances.
 * @param headingId - the heading's id.
 * @param openFrom - versions above this number start unfolded (a refused stale acceptance shows what changed).
 */
export function VersionHistory({ history, headingId, openFrom }: { history: HistoryView; headingId: string; openFrom?: number }) {
  if (!history.versions.length) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6"
      data-testid="version-history"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        History
      </h2>
      <ol className="mt-3 flex flex-col gap-3">
        {history.versions.map((v) => {
          const accepted = history.acceptances.filter((a) => a.versionNumber === v.number);
          return (
            <li key={v.number} className="min-w-0 rounded-lg border border-slate-200 p-3">
              <details open={openFrom !== undefined ? v.number > openFrom : v.number === history.versions[0]?.number}>
                <summary className="cursor-pointer font-medium">
                  Version {v.number} · {formatCents(v.totalCents, v.currency)} · {v.createdByName || "the agency"} ·{" "}
                  <LocalDateTime value={v.createdAt} />
                </summary>
                {v.number === 1 ? (
                  <p className="mt-2 text-sm text-slate-600">The first version of the terms.</p>
                ) : (
                  <VersionChanges changes={v.changes} />
                )}
                <p className="mt-2 text-xs break-all text-slate-600">SHA-256 {v.sha256}</p>
              </details>
              {v.voids.map((n) => (
                <p key={n} className="mt-2 text-sm font-medium text-amber-900">
                  Acceptance of version {n} voided by version {v.number}
                </p>
              ))}
              {accepted.map((a) => (
                <p key={a.certificateId} className="mt-2 text-sm text-green-900">
                  Accepted by {a.typedName} on <LocalDateTime value={a.acceptedAt} />
                  {a.voidedAt ? ` — voided by version ${a.voidedByVersion ?? "?"}` : ""}
                </p>
              ))}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
