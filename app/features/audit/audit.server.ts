/**
 * Audit trail: every admin write records who, what, when and the before/after
 * values, in the same transaction as the write itself. Each recorded write is also published
 * as a live update to the users allowed to see it (app/features/live/live-events.server.ts).
 */
import { and, count, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { auditEvent } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { publishAudit } from "#app/features/live/live-events.server";

import { AUDIT_ENTITIES, type AuditEntity } from "./audit-entities";

export { AUDIT_ENTITIES, type AuditEntity };

export interface AuditInput {
  entity: AuditEntity;
  entityId: string | number;
  action: string;
  /** The changed fields before the write (null for a creation). */
  before?: unknown;
  /** The changed fields after the write (null for a deletion). */
  after?: unknown;
  /**
   * The proposal the event belongs to, for its timeline (docs/product.md#conversations). Filled
   * in from `entityId` when `entity` is `proposal`; pass it for the events of an invoice, a
   * meeting, a version or a message of one proposal.
   */
  proposalId?: number | null;
}

/** Makes values JSON-safe (Dates → ISO strings) so they round-trip through jsonb. */
function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/**
 * Records one audit event, and publishes it as a live update (docs/product.md#live-updates).
 * Call it inside the write's transaction.
 *
 * @param q - the transaction of the write.
 * @param actor - the user who acted (an admin, or a client/ambassador for their own proposal's events).
 * @returns the event's id.
 */
export async function recordAudit(q: Queryable, actor: Actor, input: AuditInput): Promise<number> {
  const [row] = await q
    .insert(auditEvent)
    .values({
      actorId: actor.id,
      actorEmail: actor.email,
      entity: input.entity,
      entityId: String(input.entityId),
      action: input.action,
      before: plain(input.before),
      after: plain(input.after),
      proposalId: input.proposalId ?? (input.entity === "proposal" ? Number(input.entityId) : null),
    })
    .returning({ id: auditEvent.id });
  await publishAudit(q, input, actor);
  return row!.id;
}

/**
 * The audit row of a write made in the same statement (`postMessage` writes a message, its audit
 * event and its live event at once): one `audit_event` row per row of `source`, whose `id` is the
 * entity's id. The caller writes the live event itself ({@link recordAudit} does it for the rest).
 *
 * @param source - a relation with the entity's `id` column (a CTE name); no row, no event.
 * @returns SQL for the `insert` (no `returning`).
 */
export function auditInsert(actor: Actor, input: Omit<AuditInput, "entityId">, source: SQL): SQL {
  const json = (value: unknown) => {
    const v = plain(value);
    return v === null ? null : JSON.stringify(v);
  };
  return sql`
    insert into audit_event (actor_id, actor_email, entity, entity_id, action, before, after, proposal_id)
    select ${actor.id}, ${actor.email}, ${input.entity}, e.id::text, ${input.action},
      ${json(input.before)}::jsonb, ${json(input.after)}::jsonb, ${input.proposalId ?? null}::int
    from ${source} e`;
}

/**
 * The fields whose values differ between two snapshots of a record (compared as JSON), for
 * an audit event's before/after.
 *
 * @returns `{ before, after }` holding only the changed fields, or both null when nothing changed.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: T,
): { before: Partial<T> | null; after: Partial<T> | null } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(plain(before[key])) !== JSON.stringify(plain(after[key]))) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return Object.keys(a).length ? { before: b, after: a } : { before: null, after: null };
}

export type AuditEventRow = typeof auditEvent.$inferSelect;

/**
 * The audit trail for `/admin/audit`, newest first, keyset-paginated by id.
 *
 * @param options.entity - only events of this entity.
 * @param options.before - id cursor: events older than this one.
 * @param options.limit - page size (default 50).
 * @returns the page and the total matching count.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listAuditEvents(
  q: Queryable,
  actor: Actor,
  options: { entity?: AuditEntity; before?: number; limit?: number } = {},
): Promise<{ events: AuditEventRow[]; total: number; nextBefore: number | null }> {
  assertRole(actor, "admin");
  const limit = options.limit ?? 50;
  const entityFilter = options.entity ? eq(auditEvent.entity, options.entity) : undefined;
  const events = await q
    .select()
    .from(auditEvent)
    .where(and(entityFilter, options.before ? lt(auditEvent.id, options.before) : undefined))
    .orderBy(desc(auditEvent.id))
    .limit(limit + 1);
  const [{ n }] = (await q.select({ n: count() }).from(auditEvent).where(entityFilter)) as [{ n: number }];
  const more = events.length > limit;
  return { events: events.slice(0, limit), total: n, nextBefore: more ? events[limit - 1]!.id : null };
}
