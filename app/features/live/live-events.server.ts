/**
 * Writing live updates (docs/product.md#live-updates): an event row in `live_event`, inside the
 * transaction of the write it is about, naming exactly who may receive it. The row's insert
 * trigger sends `pg_notify('portal_events', <id>)`, which PostgreSQL delivers on commit only, to
 * every server process (app/features/live/hub.server.ts reads the row and streams it).
 *
 * Two ways in, and nobody else calls this layer:
 * - `recordAudit` (every recorded admin write) calls {@link publishAudit};
 * - the use-cases of writes that are not audited (a client's proposal, meeting request, contact
 *   message; a message in a thread) call {@link publishLive} / {@link publishProposalEvent}.
 * A write that reaches both for the same kind and entity in one transaction is told once (unique
 * index on transaction, kind and entity).
 *
 * Who receives what ({@link audienceOf}):
 * | entity | audience |
 * |---|---|
 * | proposal | every admin; its client (an ambassador's proposal: once the client's address is verified); its ambassador for status, approval, decline and deletion |
 * | invoice | every admin; the invoice's client |
 * | meeting | every admin; the meeting's client |
 * | commission | every admin; the proposal's ambassador |
 * | payout | every admin; the ambassador paid |
 * | message (issue #23's conversation) | every admin; the proposal's client — an internal note: admins only |
 * | anything else (user, settings, mail, contact, …) | every admin |
 */
import { MONEY_ROLES, PROJECT_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, liveEvent, meeting, proposal } from "#app/db/schema";
import type { LiveData } from "./live-kinds";

/** How long events are kept for browsers that reconnect (`Last-Event-ID`): 24 hours. */
export const LIVE_EVENT_RETENTION_MS = 24 * 3600 * 1000;

/** One event to publish. */
export interface LiveEventInput {
  /** `<entity>.<action>`, e.g. `proposal.created`. */
  kind: string;
  entityId: string | number;
  proposalId?: number | null;
  data?: LiveData;
  /** Users who receive it (null and repeated ids are ignored). */
  userIds?: ReadonlyArray<string | null | undefined>;
  /** Every admin receives it. */
  admins?: boolean;
  /** Who caused it (their own tabs do not reload for their own write: they just did). */
  actorId?: string | null;
}

/**
 * Writes one event (nothing when it has no recipient, or when the same kind and entity were
 * already published in this transaction).
 *
 * @param q - the transaction of the write the event is about (the notification leaves on commit).
 */
export async function publishLive(q: Queryable, input: LiveEventInput): Promise<void> {
  const userIds = [...new Set(input.userIds?.filter((id): id is string => typeof id === "string" && id.length > 0) ?? [])];
  const admins = input.admins ?? false;
  if (!admins && userIds.length === 0) return;
  await q
    .insert(liveEvent)
    .values({
      kind: input.kind,
      entityId: String(input.entityId),
      proposalId: input.proposalId ?? null,
      data: input.actorId ? { ...input.data, actorId: input.actorId } : { ...input.data },
      userIds,
      admins,
    })
    .onConflictDoNothing();
}

/** Proposal kinds that its ambassador is told about (the ambassador sees status only). */
const AMBASSADOR_PROPOSAL_ACTIONS = new Set(["status-changed", "status-undone", "approved", "declined", "deleted", "submitted", "created"]);

/**
 * Publishes an event about a proposal to its audience (every admin, its client, and its
 * ambassador for status-level kinds), with its current status and project name.
 *
 * @param kind - `proposal.<action>`.
 * @param extra - labels to add (e.g. the status of a deleted proposal).
 */
export async function publishProposalEvent(
  q: Queryable,
  proposalId: number,
  kind: string,
  extra: LiveData = {},
  actorId?: string | null,
): Promise<void> {
  const audience = await proposalAudience(q, proposalId);
  const action = kind.slice(kind.indexOf(".") + 1);
  await publishLive(q, {
    kind,
    entityId: proposalId,
    proposalId,
    admins: true,
    userIds: [...(audience?.clientIds ?? []), AMBASSADOR_PROPOSAL_ACTIONS.has(action) ? audience?.ambassadorId : null],
    data: { status: audience?.status, projectName: audience?.projectName, ...extra },
    actorId,
  });
}

/**
 * SQL: the people of proposal `p`'s organisation who see it (owners and members; an ambassador's
 * proposal only those whose address is verified, as in the client's lists — docs/product.md#organisations),
 * with `conversation` also the billing people added to its conversation; a text[] (empty: none).
 */
export function proposalPeopleSql(p: SQL, options: { conversation?: boolean } = {}): SQL {
  const billing = options.conversation
    ? sql` or (pm.role = 'billing' and exists (select 1 from conversation_member pc where pc.proposal_id = ${p}.id and pc.user_id = pm.user_id and pc.added_at is not null))`
    : sql``;
  return sql`coalesce((select array_agg(pm.user_id order by pm.created_at, pm.user_id) from membership pm join "user" pu on pu.id = pm.user_id
    where pm.organisation_id = ${p}.organisation_id and (pm.role in ('owner', 'member')${billing}) and (${p}.source = 'client' or pu.email_verified)), '{}'::text[])`;
}

/**
 * A proposal's participants: the people of its organisation who may see it ({@link proposalPeopleSql}),
 * its ambassador, and its labels. Null when the proposal does not exist (any more).
 */
export async function proposalAudience(
  q: Queryable,
  proposalId: number,
): Promise<{ clientIds: string[]; ambassadorId: string | null; status: string; projectName: string | null } | null> {
  const [row] = await q
    .select({
      clientIds: sql<string[]>`${proposalPeopleSql(sql`${proposal}`)}`,
      ambassadorId: proposal.ambassadorId,
      status: proposal.status,
      projectName: proposal.projectName,
    })
    .from(proposal)
    .where(eq(proposal.id, proposalId));
  return row ?? null;
}

/** The audited write, as `recordAudit` has it. */
export interface AuditedWrite {
  entity: string;
  entityId: string | number;
  action: string;
  before?: unknown;
  after?: unknown;
  /** The proposal it belongs to (issue #23's `AuditInput.proposalId`). */
  proposalId?: number | null;
}

const field = (value: unknown, name: string): unknown =>
  value && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Publishes the live event of an audited write (called by `recordAudit`, in its transaction):
 * kind `<entity>.<action>`, audience by entity (see the module's table).
 *
 * @param actor - who wrote it (a message's author is named in its event).
 */
export async function publishAudit(q: Queryable, write: AuditedWrite, actor?: { id: string }): Promise<void> {
  const kind = `${write.entity}.${write.action}`;
  const id = String(write.entityId);
  const pick = (name: string) => field(write.after, name) ?? field(write.before, name);
  switch (write.entity) {
    case "proposal": {
      const proposalId = Number(id);
      const status = text(field(write.after, "status"));
      if (Number.isSafeInteger(proposalId)) return publishProposalEvent(q, proposalId, kind, status ? { status } : {}, actor?.id);
      break;
    }
    case "invoice": {
      // The invoice's organisation's owners and billing people (else its client).
      let clientId = text(pick("clientId"));
      let number = text(pick("number"));
      let proposalId = pick("proposalId") as number | undefined;
      const [row] = Number.isSafeInteger(Number(id))
        ? await q
            .select({
              clientId: invoice.clientId,
              number: invoice.number,
              proposalId: invoice.proposalId,
              organisationId: invoice.organisationId,
            })
            .from(invoice)
            .where(eq(invoice.id, Number(id)))
        : [];
      clientId ??= row?.clientId ?? undefined;
      number ??= row?.number;
      proposalId ??= row?.proposalId ?? undefined;
      return publishLive(q, {
        kind,
        entityId: id,
        proposalId: proposalId ?? null,
        admins: true,
        userIds: await organisationPeople(q, row?.organisationId, MONEY_ROLES, clientId),
        data: { status: text(field(write.after, "status")), number },
        actorId: actor?.id,
      });
    }
    case "meeting": {
      // The meeting's organisation's owners and members (else who booked it).
      let userId = text(pick("userId"));
      const [row] = Number.isSafeInteger(Number(id))
        ? await q
            .select({ userId: meeting.userId, organisationId: meeting.organisationId })
            .from(meeting)
            .where(eq(meeting.id, Number(id)))
        : [];
      userId ??= row?.userId;
      return publishLive(q, {
        kind,
        entityId: id,
        admins: true,
        userIds: await organisationPeople(q, row?.organisationId, PROJECT_ROLES, userId),
        data: { status: text(field(write.after, "status")) },
        actorId: actor?.id,
      });
    }
    case "message": {
      const proposalId = write.proposalId ?? null;
      if (proposalId === null) break;
      return publishMessageEvent(q, { ...write, proposalId }, actor);
    }
    case "payout": {
      // A payout (issue #25): every admin and the ambassador paid.
      return publishLive(q, {
        kind,
        entityId: id,
        admins: true,
        userIds: [text(field(write.after, "ambassadorId"))],
        actorId: actor?.id,
      });
    }
    case "commission": {
      const proposalId = Number(id);
      const audience = Number.isSafeInteger(proposalId) ? await proposalAudience(q, proposalId) : null;
      return publishLive(q, {
        kind,
        entityId: id,
        proposalId: audience ? proposalId : null,
        admins: true,
        userIds: [audience?.ambassadorId],
        data: { projectName: audience?.projectName },
        actorId: actor?.id,
      });
    }
  }
  return publishLive(q, { kind, entityId: id, admins: true, actorId: actor?.id });
}

/**
 * A conversation's message event (issue #23's `message` audit entity: `posted`, `note-posted`,
 * `edited`, `deleted`): `message.<action>` to every admin and the proposal's client, or
 * `note.<action>` to admins only for an internal note. It names the message and its author.
 * One statement: the author's name and the proposal's audience ({@link proposalAudience}'s rule)
 * are read by the insert itself.
 */
async function publishMessageEvent(q: Queryable, write: AuditedWrite & { proposalId: number }, actor?: { id: string }): Promise<void> {
  const messageId = Number(write.entityId);
  let visibility = text(field(write.after, "visibility"));
  if (!visibility && !write.action.startsWith("note-") && Number.isSafeInteger(messageId)) {
    // Edits and deletions do not carry it: read it from the message (issue #23's table).
    const result = await q.execute(sql`select visibility from proposal_message where id = ${messageId}`);
    visibility = text((result as unknown as { rows: Array<{ visibility?: unknown }> }).rows[0]?.visibility);
  }
  const internal = write.action.startsWith("note-") || visibility !== "shared";
  const id = Number.isSafeInteger(messageId) ? messageId : null;
  await q.execute(
    messageEventInsert(
      { action: write.action.replace(/^note-/, ""), internal, proposalId: write.proposalId, actorId: actor?.id ?? null },
      sql`(select ${id}::int as id)`,
    ),
  );
}

/**
 * The message event's insert ({@link publishMessageEvent}), also written by `postMessage` in the
 * same statement as the message: one event per row of `source`, naming the message
 * (`source.id`) and its author, to every admin and — unless `internal` — the proposal's client.
 *
 * @param event.action - `posted`, `edited`, `deleted`.
 * @param source - a relation with the message's `id` (int) column; no row, no event.
 * @returns SQL for the `insert` (no `returning`).
 */
export function messageEventInsert(
  event: { action: string; internal: boolean; proposalId: number; actorId: string | null },
  source: SQL,
): SQL {
  const { internal, actorId } = event;
  // Absent labels are left out of `data` (jsonb_strip_nulls), as publishLive leaves out undefined ones.
  return sql`
    insert into live_event (kind, entity_id, proposal_id, data, user_ids, admins)
    select ${`${internal ? "note" : "message"}.${event.action}`}, coalesce(m.id::text, ''), ${event.proposalId}::int,
      jsonb_strip_nulls(jsonb_build_object(
        'messageId', m.id,
        'authorName', author.name,
        'internal', ${internal}::boolean,
        'projectName', ${internal ? sql`null::text` : sql`p.project_name`},
        'actorId', ${actorId}::text
      )),
      ${internal ? sql`'{}'::text[]` : proposalPeopleSql(sql`p`, { conversation: true })},
      true
    from ${source} as m
    left join proposal p on p.id = ${event.proposalId}::int
    left join "user" author on author.id = ${actorId}::text
    on conflict do nothing`;
}

/** A stored event as the hub reads it. */
export type LiveEventRow = typeof liveEvent.$inferSelect;

/** Reads events by id (in id order). */
export function readEvents(q: Queryable, ids: number[]): Promise<LiveEventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return q.select().from(liveEvent).where(inArray(liveEvent.id, ids)).orderBy(liveEvent.id);
}

/**
 * Deletes events older than {@link LIVE_EVENT_RETENTION_MS}.
 *
 * @returns how many were deleted.
 */
export async function pruneLiveEvents(q: Queryable, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - LIVE_EVENT_RETENTION_MS);
  const rows = await q
    .delete(liveEvent)
    .where(sql`${liveEvent.createdAt} < ${cutoff.toISOString()}`)
    .returning({ id: liveEvent.id });
  return rows.length;
}
