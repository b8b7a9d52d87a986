/**
 * The admin console's global search (issue #41, docs/product.md#admin-search): proposals,
 * clients (organisations and accounts), invoices by number and conversation messages, from one
 * field in the sidebar (⌘K / Ctrl+K) and `/admin/search?q=`.
 *
 * Words are matched with PostgreSQL full-text search — `to_tsvector('simple', …) @@ to_tsquery('simple', …)`,
 * every word a prefix (`bake` finds "Bakery") — on GIN expression indexes (migration 0038); the
 * same SQL runs on PGlite. Invoice numbers are matched as text (`INV-2026-0007`, `0007`). Only
 * admins may search (every row of every kind is an admin's to see); anyone else gets 403 before
 * anything is read.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { containsPattern } from "#app/lib/pagination";
import { SEARCH_KINDS, type SearchResult } from "./kinds";

export { SEARCH_KINDS, type SearchResult };

/** How many results of each kind a search answers. */
export const PER_KIND = 5;
/** The longest term read (longer ones are cut). */
export const MAX_TERM = 100;

/**
 * The text search vectors, the same expressions as the GIN indexes in schema.ts (else the planner
 * ignores them); `t` qualifies the columns (`"p."`), a constant of this module, never user input.
 */
export const SEARCH_VECTORS = {
  proposal: (t = "") =>
    sql.raw(
      `to_tsvector('simple', coalesce(${t}project_name, '') || ' ' || coalesce(${t}client_name, '') || ' ' || coalesce(${t}client_email, ''))`,
    ),
  user: (t = "") => sql.raw(`to_tsvector('simple', coalesce(${t}name, '') || ' ' || coalesce(${t}business_name, '') || ' ' || ${t}email)`),
  organisation: (t = "") => sql.raw(`to_tsvector('simple', ${t}name)`),
  message: (t = "") => sql.raw(`to_tsvector('simple', ${t}body)`),
};

/**
 * The term as a prefix tsquery: its words (letters and digits, lower case, at most 8), each `word:*`,
 * joined by `&`; null when it has no word. Nothing of the user's text reaches the query syntax.
 *
 * @example prefixQuery("Blue bak") → "blue:* & bak:*"
 */
export function prefixQuery(term: string): string | null {
  const words =
    term
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
}

/** The term trimmed, inner spaces collapsed, control characters dropped, cut to {@link MAX_TERM}. */
export function normalizeTerm(raw: string | null | undefined): string {
  return (raw ?? "")
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_TERM);
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const text = (value: unknown) => (value == null ? "" : String(value));

/**
 * Searches everything an admin can open (issue #41).
 *
 * @param term - what was typed; under 2 characters after normalising answers nothing.
 * @returns up to {@link PER_KIND} results of each kind, in {@link SEARCH_KINDS} order, newest first within a kind.
 * @throws {AppError} 403 unless the actor is an admin (nothing is read).
 */
export async function globalSearch(db: Queryable, actor: Actor, term: string): Promise<SearchResult[]> {
  assertRole(actor, "admin");
  const q = normalizeTerm(term);
  if (q.length < 2) return [];
  const tsq = prefixQuery(q);
  const results: SearchResult[] = [];

  const invoices = rowsOf(
    await db.execute(sql`select i.id, i.number, i.status, i.total_cents,
        coalesce(o.name, u.business_name, u.name, '') as owner
      from invoice i
      left join organisation o on o.id = i.organisation_id
      left join "user" u on u.id = i.client_id
      where i.number ilike ${containsPattern(q)}
      order by i.id desc limit ${PER_KIND}`),
  );
  for (const r of invoices)
    results.push({
      kind: "invoice",
      id: text(r.id),
      title: `Invoice ${text(r.number)}`,
      detail: [text(r.owner), r.status === "paid" ? "Paid" : "Unpaid"].filter(Boolean).join(" · "),
      href: `/admin/invoices/${text(r.id)}/payments`,
    });
  if (!tsq) return results;

  const organisations = rowsOf(
    await db.execute(sql`select o.id, o.name, (select count(*)::int from membership m where m.organisation_id = o.id) as people
      from organisation o
      where ${SEARCH_VECTORS.organisation("o.")} @@ to_tsquery('simple', ${tsq})
      order by o.id desc limit ${PER_KIND}`),
  );
  for (const r of organisations)
    results.push({
      kind: "organisation",
      id: text(r.id),
      title: text(r.name),
      detail: `${Number(r.people)} ${Number(r.people) === 1 ? "person" : "people"}`,
      href: `/admin/organisations/${text(r.id)}`,
    });

  const users = rowsOf(
    await db.execute(sql`select id, name, business_name, email, role
      from "user"
      where ${SEARCH_VECTORS.user()} @@ to_tsquery('simple', ${tsq})
      order by created_at desc, id desc limit ${PER_KIND}`),
  );
  for (const r of users) {
    const role = r.role === "admin" ? "Admin" : r.role === "ambassador" ? "Ambassador" : "Client";
    results.push({
      kind: "user",
      id: text(r.id),
      title: text(r.business_name) || text(r.name),
      detail: `${role} · ${text(r.email)}`,
      href: `/admin/users?q=${encodeURIComponent(text(r.email))}`,
    });
  }

  const proposals = rowsOf(
    await db.execute(sql`select p.id, p.project_name, p.status,
        coalesce(u.business_name, u.name, p.client_name, '') as client
      from proposal p left join "user" u on u.id = p.client_id
      where ${SEARCH_VECTORS.proposal("p.")} @@ to_tsquery('simple', ${tsq})
      order by p.created_at desc, p.id desc limit ${PER_KIND}`),
  );
  for (const r of proposals)
    results.push({
      kind: "proposal",
      id: text(r.id),
      title: text(r.project_name),
      detail: text(r.client) || "No client yet",
      href: `/admin/proposals/${text(r.id)}`,
    });

  const messages = rowsOf(
    await db.execute(sql`select m.id, m.proposal_id, m.author_name, left(m.body, 140) as body, p.project_name
      from proposal_message m join proposal p on p.id = m.proposal_id
      where m.deleted_at is null and ${SEARCH_VECTORS.message("m.")} @@ to_tsquery('simple', ${tsq})
      order by m.id desc limit ${PER_KIND}`),
  );
  for (const r of messages)
    results.push({
      kind: "message",
      id: text(r.id),
      title: text(r.body),
      detail: `${text(r.author_name)} on ${text(r.project_name)}`,
      href: `/admin/proposals/${text(r.proposal_id)}#conversation`,
    });
  return results;
}
