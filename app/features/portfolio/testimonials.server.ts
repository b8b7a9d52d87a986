/**
 * Testimonials from real clients (issue #40, docs/product.md#testimonials). When a project is
 * marked completed its organisation's owners are asked — on their dashboard and once by mail —
 * for a short testimonial and a rating, with a consent choice (name and company, first name only,
 * or not published). They may change or withdraw it; a change takes back the admin's approval,
 * and only an approved, consented, not withdrawn testimonial is shown on the site.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { caseStudy, membership, organisation, proposal, testimonial, user, type TestimonialConsent } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { publishLive } from "#app/features/live/live-events.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { inOrganisation, OWNER_ROLES, requireOrganisationRole } from "#app/features/organisations/access.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { invalidInput, notFound } from "#app/lib/errors";
import type { TestimonialInput } from "./case-study.schema";
import type { PublicTestimonial } from "./components/testimonial-quote";

const shown = and(
  isNotNull(testimonial.approvedAt),
  isNull(testimonial.withdrawnAt),
  inArray(testimonial.consent, ["name", "first_name"]),
  isNotNull(testimonial.text),
);

/** "Ada Lovelace, Analytical Ltd" or "Ada", as consented. */
export function attribution(consent: TestimonialConsent, authorName: string, company: string): string {
  const name = authorName.trim() || "A client";
  if (consent === "first_name") return name.split(/\s+/)[0]!;
  return company.trim() ? `${name}, ${company.trim()}` : name;
}

/**
 * @param where.caseStudyId - only those shown on this case study; absent: any (the home page).
 * @returns the approved testimonials the site may show, newest approval first.
 */
export async function listShownTestimonials(db: Queryable, where: { caseStudyId?: number; limit: number }): Promise<PublicTestimonial[]> {
  const rows = await db
    .select({
      id: testimonial.id,
      text: testimonial.text,
      rating: testimonial.rating,
      consent: testimonial.consent,
      authorName: testimonial.authorName,
      company: organisation.name,
    })
    .from(testimonial)
    .innerJoin(organisation, eq(organisation.id, testimonial.organisationId))
    .where(and(shown, where.caseStudyId === undefined ? undefined : eq(testimonial.caseStudyId, where.caseStudyId)))
    .orderBy(desc(testimonial.approvedAt), desc(testimonial.id))
    .limit(where.limit);
  return rows.map((r) => ({
    id: r.id,
    text: r.text!,
    rating: r.rating ?? 5,
    attribution: attribution(r.consent!, r.authorName ?? "", r.company),
  }));
}

/**
 * Asks for a testimonial on a project just marked completed: one request per proposal (a second
 * completion asks nothing), a mail to each owner of its organisation, once.
 *
 * @param q - the transaction that marks the proposal completed.
 * @returns whether a request was made.
 */
export async function requestTestimonial(q: Queryable, proposalId: number): Promise<boolean> {
  const [p] = await q
    .select({ organisationId: proposal.organisationId, projectName: proposal.projectName })
    .from(proposal)
    .where(eq(proposal.id, proposalId));
  if (!p?.organisationId) return false;
  const [row] = await q
    .insert(testimonial)
    .values({ proposalId, organisationId: p.organisationId })
    .onConflictDoNothing()
    .returning({ id: testimonial.id });
  if (!row) return false;
  const owners = await q
    .select({ userId: membership.userId })
    .from(membership)
    .where(and(eq(membership.organisationId, p.organisationId), eq(membership.role, "owner")));
  for (const owner of owners) {
    await queueUserNotice(q, owner.userId, {
      subject: `How did ${p.projectName || "your project"} go?`,
      lines: [
        `Your project ${p.projectName ? `“${p.projectName}” ` : ""}is complete. Would you share a few words and a rating about working with us?`,
        "You choose whether we may publish it with your name and company, with your first name only, or not at all — and you can change or withdraw it later.",
      ],
      link: { label: "Write a testimonial", path: `/testimonials/${row.id}` },
    });
  }
  await publishLive(q, { kind: "testimonial.requested", entityId: row.id, proposalId, userIds: owners.map((o) => o.userId), admins: true });
  return true;
}

/** A testimonial request or testimonial as its client sees it. */
export interface ClientTestimonial {
  id: number;
  proposalId: number;
  projectName: string;
  text: string | null;
  rating: number | null;
  consent: TestimonialConsent | null;
  submittedAt: Date | null;
  approved: boolean;
  withdrawn: boolean;
}

const clientColumns = {
  id: testimonial.id,
  proposalId: testimonial.proposalId,
  projectName: sql<string>`coalesce(${proposal.projectName}, 'Your project')`,
  text: testimonial.text,
  rating: testimonial.rating,
  consent: testimonial.consent,
  submittedAt: testimonial.submittedAt,
  approved: sql<boolean>`${testimonial.approvedAt} is not null`,
  withdrawn: sql<boolean>`${testimonial.withdrawnAt} is not null`,
};

/** @returns the testimonials (asked or written) of the actor's organisation — owners only; empty for anyone else. */
export async function listMyTestimonials(db: Queryable, actor: Actor): Promise<ClientTestimonial[]> {
  if (actor.role !== "client") return [];
  return db
    .select(clientColumns)
    .from(testimonial)
    .innerJoin(proposal, eq(proposal.id, testimonial.proposalId))
    .where(inOrganisation(testimonial.organisationId, actor, OWNER_ROLES))
    .orderBy(desc(testimonial.requestedAt), desc(testimonial.id));
}

/** @throws {AppError} 404 unless the actor is an owner of the testimonial's organisation. */
export async function getMyTestimonial(db: Queryable, actor: Actor, id: number): Promise<ClientTestimonial> {
  requireOrganisationRole(actor, OWNER_ROLES, "Testimonial not found");
  const [row] = await db
    .select(clientColumns)
    .from(testimonial)
    .innerJoin(proposal, eq(proposal.id, testimonial.proposalId))
    .where(and(eq(testimonial.id, id), inOrganisation(testimonial.organisationId, actor, OWNER_ROLES)));
  if (!row) throw notFound("Testimonial not found");
  return row;
}

/**
 * Writes (or changes) the testimonial: it waits for the admin's approval again.
 *
 * @throws {AppError} 404 unless the actor is an owner of its organisation.
 */
export async function submitTestimonial(db: Database, actor: Actor, id: number, input: TestimonialInput): Promise<void> {
  requireOrganisationRole(actor, OWNER_ROLES, "Testimonial not found");
  await db.transaction(async (tx) => {
    const [author] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
    const [row] = await tx
      .update(testimonial)
      .set({
        text: input.text,
        rating: input.rating,
        consent: input.consent,
        authorId: actor.id,
        authorName: author?.name ?? "",
        submittedAt: new Date(),
        approvedAt: null,
        withdrawnAt: null,
      })
      .where(and(eq(testimonial.id, id), inOrganisation(testimonial.organisationId, actor, OWNER_ROLES)))
      .returning({ id: testimonial.id, proposalId: testimonial.proposalId });
    if (!row) throw notFound("Testimonial not found");
    // Admins are told; the public pages drop a testimonial that was shown (its approval is taken back).
    await publishLive(tx, { kind: "testimonial.submitted", entityId: id, proposalId: row.proposalId, admins: true, actorId: actor.id });
  });
}

/**
 * Withdraws the testimonial: it disappears from the site at once (the text is kept for the client to see).
 *
 * @throws {AppError} 404 unless the actor is an owner of its organisation; 400 when nothing was written.
 */
export async function withdrawTestimonial(db: Database, actor: Actor, id: number): Promise<void> {
  requireOrganisationRole(actor, OWNER_ROLES, "Testimonial not found");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(testimonial)
      .set({ withdrawnAt: new Date(), approvedAt: null })
      .where(
        and(eq(testimonial.id, id), isNotNull(testimonial.submittedAt), inOrganisation(testimonial.organisationId, actor, OWNER_ROLES)),
      )
      .returning({ id: testimonial.id, proposalId: testimonial.proposalId });
    if (!row) throw invalidInput("There is no testimonial to withdraw.");
    await publishLive(tx, { kind: "testimonial.withdrawn", entityId: id, proposalId: row.proposalId, admins: true, actorId: actor.id });
  });
}

/** A testimonial in the admin's list. */
export interface AdminTestimonial {
  id: number;
  proposalId: number;
  projectName: string;
  organisationName: string;
  authorName: string | null;
  text: string | null;
  rating: number | null;
  consent: TestimonialConsent | null;
  caseStudyId: number | null;
  caseStudyTitle: string | null;
  submittedAt: Date | null;
  approvedAt: Date | null;
  withdrawnAt: Date | null;
  /** The case study drafted from the same proposal (the default place to show it). */
  suggestedCaseStudyId: number | null;
}

/** @returns every testimonial (asked, written, approved, withdrawn), newest first, for the admin. */
export async function listTestimonialsForAdmin(db: Queryable, actor: Actor): Promise<AdminTestimonial[]> {
  assertRole(actor, "admin");
  return db
    .select({
      id: testimonial.id,
      proposalId: testimonial.proposalId,
      projectName: sql<string>`coalesce(${proposal.projectName}, 'Project ' || ${proposal.id})`,
      organisationName: organisation.name,
      authorName: testimonial.authorName,
      text: testimonial.text,
      rating: testimonial.rating,
      consent: testimonial.consent,
      caseStudyId: testimonial.caseStudyId,
      caseStudyTitle: sql<string | null>`(select cs.draft->>'title' from case_study cs where cs.id = ${testimonial.caseStudyId})`,
      submittedAt: testimonial.submittedAt,
      approvedAt: testimonial.approvedAt,
      withdrawnAt: testimonial.withdrawnAt,
      suggestedCaseStudyId: sql<
        number | null
      >`(select cs.id from case_study cs where cs.source_proposal_id = ${testimonial.proposalId} order by cs.id limit 1)`,
    })
    .from(testimonial)
    .innerJoin(proposal, eq(proposal.id, testimonial.proposalId))
    .innerJoin(organisation, eq(organisation.id, testimonial.organisationId))
    .orderBy(desc(sql`coalesce(${testimonial.submittedAt}, ${testimonial.requestedAt})`), desc(testimonial.id));
}

/**
 * Approves a written testimonial to be shown on the home page and, when `caseStudyId` is given, on
 * that case study (only if the client consented to publish it).
 *
 * @throws {AppError} 400 when there is nothing to approve (not written, withdrawn, or not for publication).
 */
export async function approveTestimonial(db: Database, actor: Actor, id: number, caseStudyId: number | null): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    if (caseStudyId !== null) {
      const [cs] = await tx.select({ id: caseStudy.id }).from(caseStudy).where(eq(caseStudy.id, caseStudyId));
      if (!cs) throw invalidInput("Choose a case study from the list.");
    }
    const [row] = await tx
      .update(testimonial)
      .set({ approvedAt: new Date(), caseStudyId })
      .where(
        and(
          eq(testimonial.id, id),
          isNotNull(testimonial.submittedAt),
          isNull(testimonial.withdrawnAt),
          inArray(testimonial.consent, ["name", "first_name"]),
        ),
      )
      .returning({ id: testimonial.id, proposalId: testimonial.proposalId });
    if (!row) throw invalidInput("Only a written testimonial the client agreed to publish can be approved.");
    await recordAudit(tx, actor, {
      entity: "testimonial",
      entityId: id,
      action: "approved",
      after: { caseStudyId },
      proposalId: row.proposalId,
    });
  });
}

/** Takes an approval back: the testimonial leaves the site. */
export async function unapproveTestimonial(db: Database, actor: Actor, id: number): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(testimonial)
      .set({ approvedAt: null })
      .where(and(eq(testimonial.id, id), isNotNull(testimonial.approvedAt)))
      .returning({ proposalId: testimonial.proposalId });
    if (!row) throw invalidInput("This testimonial is not approved.");
    await recordAudit(tx, actor, { entity: "testimonial", entityId: id, action: "unapproved", proposalId: row.proposalId });
  });
}
