import { countOf } from "#app/lib/vocabulary";
import { Form, Link } from "react-router";
import type { Route } from "./+types/audit";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, FilterSelect, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { AUDIT_ENTITIES, type AuditEntity } from "#app/features/audit/audit-entities";
import { listAuditEvents } from "#app/features/audit/audit.server";
import { invalidInput } from "#app/lib/errors";
import { parseId } from "#app/lib/ids";
import { BAD_PAGE_LINK } from "#app/lib/pagination";
import { timeZoneFromCookie } from "#app/lib/dates";
import { formatAuditValue } from "#app/lib/vocabulary";
import { getSettings } from "#app/features/settings/settings.server";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Audit trail | Admin Console" }, { name: "robots", content: "noindex" }];

const PAGE_SIZE = 50;

/** The audit trail, newest first: `?entity=` filter and `?before=<id>` pages. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const params = new URL(request.url).searchParams;
  const entityParam = params.get("entity") ?? "";
  const entity = (AUDIT_ENTITIES as readonly string[]).includes(entityParam) ? (entityParam as AuditEntity) : undefined;
  const beforeParam = params.get("before");
  const before = beforeParam ? parseId(beforeParam) : undefined;
  if (before === null) throw invalidInput(BAD_PAGE_LINK);
  const { events, total, nextBefore } = await listAuditEvents(db, actor, { entity, before, limit: PAGE_SIZE });
  // Values are written with the vocabulary (docs/product.md#audit): the viewer's zone, the settings' currency.
  const format = { timeZone: timeZoneFromCookie(request.headers.get("cookie")) ?? "UTC", currency: (await getSettings(db)).currency };
  return {
    entity: entity ?? "",
    paged: before !== undefined,
    total,
    nextBefore,
    events: events.map((e) => ({
      id: e.id,
      actorEmail: e.actorEmail,
      entity: e.entity,
      entityId: e.entityId,
      action: e.action,
      createdAt: e.createdAt.toISOString(),
      changes: changesOf(e.entity, e.before, e.after, format),
    })),
  };
}

/** One changed field: its value before and after, as compact JSON text. */
interface Change {
  field: string;
  before: string;
  after: string;
}

const MAX_VALUE_LENGTH = 160;

function compact(entity: string, field: string, value: unknown, format: { timeZone: string; currency: string }): string {
  if (value === undefined) return "—";
  const text = formatAuditValue(entity, field, value, format);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** The fields of before ∪ after (a creation has no before, a deletion no after). */
function changesOf(entity: string, before: unknown, after: unknown, format: { timeZone: string; currency: string }): Change[] {
  const b = before && typeof before === "object" ? (before as Record<string, unknown>) : {};
  const a = after && typeof after === "object" ? (after as Record<string, unknown>) : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.map((field) => ({
    field,
    before: before === null ? "—" : compact(entity, field, b[field], format),
    after: after === null ? "—" : compact(entity, field, a[field], format),
  }));
}

const ENTITY_LABELS: Record<AuditEntity, string> = {
  proposal: "Proposals",
  invoice: "Invoices",
  user: "Users",
  meeting: "Meetings",
  organisation: "Organisations",
  commission: "Commissions",
  payout: "Payouts",
  settings: "Settings",
  mail: "Mail outbox",
  contact: "Contact messages",
  message: "Conversation messages",
  offer: "Offers and acceptances",
  job: "Background jobs",
  case_study: "Case studies",
  testimonial: "Testimonials",
  "billing-plan": "Billing plans",
  "unapplied-payment": "Card payments kept aside",
};

type EventRow = Route.ComponentProps["loaderData"]["events"][number];

/** /admin/audit: who changed what and when, before → after; filter by entity; older pages. */
export default function AuditTrail({ loaderData }: Route.ComponentProps) {
  const { events, entity, total, nextBefore, paged } = loaderData;
  const columns: Column<EventRow>[] = [
    {
      header: "When",
      cell: (e) => (
        <span className="whitespace-nowrap">
          <LocalTime value={e.createdAt} />
        </span>
      ),
    },
    { header: "Who", cell: (e) => <span className="wrap-text">{e.actorEmail}</span> },
    {
      header: "What",
      cell: (e) => (
        <span>
          {e.entity} #{e.entityId} <span className="font-medium whitespace-nowrap">{e.action}</span>
        </span>
      ),
    },
    {
      header: "Before → after",
      cell: (e) =>
        e.changes.length === 0 ? (
          "—"
        ) : (
          <ul className="max-w-md min-w-48 space-y-0.5 text-xs">
            {e.changes.map((c) => (
              <li key={c.field} className="wrap-text">
                <span className="font-semibold">{c.field}</span>: {c.before} → {c.after}
              </li>
            ))}
          </ul>
        ),
    },
  ];
  const entityHref = entity ? `entity=${entity}&` : "";
  return (
    <>
      <PageHeading title="Audit trail" lead="Every admin change, newest first, with the values before and after." />
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
        <FilterSelect
          name="entity"
          label="Show"
          value={entity}
          options={[{ value: "", label: "All changes" }, ...AUDIT_ENTITIES.map((e) => ({ value: e, label: ENTITY_LABELS[e] }))]}
        />
        <button type="submit" className={buttonClass("primary", "md")}>
          Filter
        </button>
      </Form>
      <DataTable
        caption="Audit events, newest first"
        columns={columns}
        rows={events}
        rowKey={(e) => e.id}
        empty={entity ? "No changes of this kind yet." : "No changes recorded yet."}
      />
      <nav aria-label="Pages of audit events" className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
        <p>
          {countOf(total, "event")}
          {total > events.length ? ` · showing ${events.length}` : ""}
        </p>
        <div className="flex gap-2">
          {paged ? (
            <Link className={buttonClass("secondary")} to={entity ? `/admin/audit?entity=${entity}` : "/admin/audit"}>
              ← Newest
            </Link>
          ) : null}
          {nextBefore ? (
            <Link className={buttonClass("secondary")} to={`/admin/audit?${entityHref}before=${nextBefore}`}>
              Older →
            </Link>
          ) : null}
        </div>
      </nav>
    </>
  );
}
