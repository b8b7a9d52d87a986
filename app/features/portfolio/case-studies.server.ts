/**
 * Case studies (issue #40, docs/product.md#portfolio): the public reads (published copies only)
 * and the admin's use-cases — create, edit the draft, publish (copies the draft over the published
 * copy and makes its Open Graph image), unpublish, reorder, feature, and draft one from a delivered
 * project. Every admin write is audited as entity `case_study`, which also publishes a live event:
 * each server process hears it and drops its cached public pages (server/page-cache.ts).
 */
import { and, asc, count, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { caseStudy, proposal, proposalOffer, type CaseStudyContent, type CaseStudyImageRef } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { conflict, fieldError, invalidInput, notFound } from "#app/lib/errors";
import { caseStudyDraftSchema, slugify, type CaseStudyDraftInput } from "./case-study.schema";

/** A case study as the public pages read it: its published copy. */
export interface PublishedCaseStudy {
  id: number;
  content: CaseStudyContent;
  publishedAt: Date;
}

/**
 * Live-event kinds after which the public pages must be rendered again (server/page-cache.ts):
 * what changes the published copies, their order or featuring, and any testimonial change (a
 * change by its client takes the approval back). Draft edits change no public page.
 */
export const PUBLIC_PAGE_EVENT = /^(case_study\.(published|unpublished|featured|moved-up|moved-down)|testimonial\.)/;

/** @returns every published case study in the order of /projects. */
export async function listPublishedCaseStudies(db: Queryable): Promise<PublishedCaseStudy[]> {
  const rows = await db
    .select({ id: caseStudy.id, content: caseStudy.published, publishedAt: caseStudy.publishedAt })
    .from(caseStudy)
    .where(isNotNull(caseStudy.published))
    .orderBy(asc(caseStudy.position), asc(caseStudy.id));
  return rows.map((r) => ({ id: r.id, content: r.content!, publishedAt: r.publishedAt! }));
}

/** @returns the home page's Featured Projects: published and featured, in their featured order. */
export async function listFeaturedCaseStudies(db: Queryable): Promise<PublishedCaseStudy[]> {
  const rows = await db
    .select({ id: caseStudy.id, content: caseStudy.published, publishedAt: caseStudy.publishedAt })
    .from(caseStudy)
    .where(and(isNotNull(caseStudy.published), isNotNull(caseStudy.featuredPosition)))
    .orderBy(asc(caseStudy.featuredPosition), asc(caseStudy.id));
  return rows.map((r) => ({ id: r.id, content: r.content!, publishedAt: r.publishedAt! }));
}

/** @returns the published case study at `/<slug>`, or null. */
export async function findPublishedCaseStudy(db: Queryable, slug: string): Promise<PublishedCaseStudy | null> {
  const [row] = await db
    .select({ id: caseStudy.id, content: caseStudy.published, publishedAt: caseStudy.publishedAt })
    .from(caseStudy)
    .where(and(eq(caseStudy.slug, slug), isNotNull(caseStudy.published)));
  return row ? { id: row.id, content: row.content!, publishedAt: row.publishedAt! } : null;
}

/** @returns the paths of the published case studies (`/<slug>`), for the sitemap and the page cache. */
export async function publishedCaseStudyPaths(db: Queryable): Promise<string[]> {
  const rows = await db
    .select({ slug: caseStudy.slug })
    .from(caseStudy)
    .where(isNotNull(caseStudy.published))
    .orderBy(asc(caseStudy.position), asc(caseStudy.id));
  return rows.map((r) => `/${r.slug}`);
}

/** One row of the admin's list. */
export interface CaseStudyListRow {
  id: number;
  title: string;
  slug: string;
  status: "draft" | "published";
  /** Published, and the draft has changes not yet published. */
  unpublishedChanges: boolean;
  position: number;
  featuredPosition: number | null;
  /** Proposals requested through its "Start a project like this". */
  requests: number;
}

/** @returns every case study for the admin, in the order of /projects, with its request count. */
export async function listCaseStudiesForAdmin(db: Queryable, actor: Actor): Promise<CaseStudyListRow[]> {
  assertRole(actor, "admin");
  const requests = db
    .select({ caseStudyId: proposal.sourceCaseStudyId, n: count().as("n") })
    .from(proposal)
    .where(isNotNull(proposal.sourceCaseStudyId))
    .groupBy(proposal.sourceCaseStudyId)
    .as("requests");
  const rows = await db
    .select({
      id: caseStudy.id,
      draft: caseStudy.draft,
      published: caseStudy.published,
      position: caseStudy.position,
      featuredPosition: caseStudy.featuredPosition,
      requests: sql<number>`coalesce(${requests.n}, 0)::int`,
    })
    .from(caseStudy)
    .leftJoin(requests, eq(requests.caseStudyId, caseStudy.id))
    .orderBy(asc(caseStudy.position), asc(caseStudy.id));
  return rows.map((r) => ({
    id: r.id,
    title: r.draft.title,
    slug: r.draft.slug,
    status: r.published ? "published" : "draft",
    unpublishedChanges: r.published !== null && JSON.stringify(r.published) !== JSON.stringify(r.draft),
    position: r.position,
    featuredPosition: r.featuredPosition,
    requests: Number(r.requests),
  }));
}

/** A case study as the editor reads it. */
export interface CaseStudyForAdmin {
  id: number;
  draft: CaseStudyContent;
  published: CaseStudyContent | null;
  publishedAt: Date | null;
  draftUpdatedAt: Date;
  sourceProposalId: number | null;
}

/**
 * @throws {AppError} 404 when there is no such case study; 403 for anyone but an admin.
 */
export async function getCaseStudyForAdmin(db: Queryable, actor: Actor, id: number): Promise<CaseStudyForAdmin> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({
      id: caseStudy.id,
      draft: caseStudy.draft,
      published: caseStudy.published,
      publishedAt: caseStudy.publishedAt,
      draftUpdatedAt: caseStudy.draftUpdatedAt,
      sourceProposalId: caseStudy.sourceProposalId,
    })
    .from(caseStudy)
    .where(eq(caseStudy.id, id));
  if (!row) throw notFound("Case study not found");
  return row;
}

/** An empty draft's content. */
function blankContent(title: string, slug: string): CaseStudyContent {
  return {
    title,
    slug,
    summary: "",
    description: "",
    role: "",
    timeline: "",
    outcome: "",
    color: "#4338ca",
    problem: "",
    solution: "",
    features: [],
    tech: [],
    impact: "",
    github: null,
    live: null,
    images: [],
  };
}

/** @returns `base`, or `base-2`, `base-3` … : the first slug no other case study uses (published or draft). */
async function freeSlug(q: Queryable, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await slugTaken(q, slug))) return slug;
  }
}

async function slugTaken(q: Queryable, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await q
    .select({ id: caseStudy.id })
    .from(caseStudy)
    .where(
      and(
        or(eq(caseStudy.slug, slug), sql`${caseStudy.draft}->>'slug' = ${slug}`),
        exceptId === undefined ? undefined : ne(caseStudy.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Creates a draft case study, last in the order, not featured.
 *
 * @param init - the title, and optionally prefilled content and the proposal it comes from.
 * @returns the new case study's id.
 */
export async function createCaseStudy(
  db: Database,
  actor: Actor,
  init: { title: string; content?: Partial<CaseStudyContent>; sourceProposalId?: number },
): Promise<number> {
  assertRole(actor, "admin");
  const title = init.title.trim();
  if (!title) throw fieldError("title", "Title is required.");
  return db.transaction(async (tx) => {
    const slug = await freeSlug(tx, slugify(title));
    const [{ next } = { next: 1 }] = await tx
      .select({ next: sql<number>`coalesce(max(${caseStudy.position}), 0)::int + 1` })
      .from(caseStudy);
    const draft = { ...blankContent(title, slug), ...init.content, title, slug };
    const [row] = await tx
      .insert(caseStudy)
      .values({ draft, position: Number(next), sourceProposalId: init.sourceProposalId ?? null })
      .returning({ id: caseStudy.id });
    await recordAudit(tx, actor, { entity: "case_study", entityId: row!.id, action: "created", after: { title, slug } });
    return row!.id;
  });
}

/**
 * Saves the editor's fields into the draft (the published copy is unchanged).
 *
 * @throws {AppError} 409 on `slug` when another case study uses it; 404 when missing.
 */
export async function saveCaseStudyDraft(db: Database, actor: Actor, id: number, input: CaseStudyDraftInput): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ draft: caseStudy.draft }).from(caseStudy).where(eq(caseStudy.id, id)).for("update");
    if (!row) throw notFound("Case study not found");
    if (await slugTaken(tx, input.slug, id)) throw fieldError("slug", "Another case study uses this slug.", "CONFLICT");
    const draft: CaseStudyContent = { ...row.draft, ...input };
    await tx.update(caseStudy).set({ draft, draftUpdatedAt: new Date() }).where(eq(caseStudy.id, id));
    await recordAudit(tx, actor, {
      entity: "case_study",
      entityId: id,
      action: "draft-saved",
      before: { title: row.draft.title },
      after: { title: draft.title },
    });
  });
}

/** The draft as the editor's form sends it, to check it is complete before publishing. */
export function contentAsForm(content: CaseStudyContent): Record<string, string> {
  return {
    title: content.title,
    slug: content.slug,
    summary: content.summary,
    description: content.description,
    role: content.role,
    timeline: content.timeline,
    outcome: content.outcome,
    color: content.color,
    problem: content.problem,
    solution: content.solution,
    features: content.features.join("\n"),
    tech: content.tech.join(", "),
    impact: content.impact,
    github: content.github ?? "",
    live: content.live ?? "",
  };
}

/**
 * Publishes the draft: it becomes what the site shows at `/<slug>` (the old slug, if it changed,
 * answers 404 from now on), with `ogImage` as its Open Graph image.
 *
 * @param makeOgImage - renders the Open Graph PNG of the content (app/features/portfolio/og-image.server.ts).
 * @throws {AppError} 400 naming the first incomplete field (an incomplete draft is never published); 409 on a taken slug.
 */
export async function publishCaseStudy(
  db: Database,
  actor: Actor,
  id: number,
  makeOgImage: (content: CaseStudyContent) => Promise<Uint8Array>,
): Promise<void> {
  assertRole(actor, "admin");
  const { draft } = await getCaseStudyForAdmin(db, actor, id);
  const check = caseStudyDraftSchema.safeParse(contentAsForm(draft));
  if (!check.success) {
    const issue = check.error.issues[0]!;
    throw invalidInput(`Not published: ${issue.message} Edit the draft first.`);
  }
  if (draft.images.some((image) => !image.alt.trim())) throw invalidInput("Not published: every screenshot needs its alt text.");
  const ogImage = await makeOgImage(draft);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ draft: caseStudy.draft, slug: caseStudy.slug })
      .from(caseStudy)
      .where(eq(caseStudy.id, id))
      .for("update");
    if (!row) throw notFound("Case study not found");
    if (JSON.stringify(row.draft) !== JSON.stringify(draft))
      throw conflict("The draft changed while it was being published. Publish again.");
    if (await slugTaken(tx, draft.slug, id)) throw conflict("Another case study uses this slug.");
    await tx.update(caseStudy).set({ published: draft, slug: draft.slug, publishedAt: new Date(), ogImage }).where(eq(caseStudy.id, id));
    await recordAudit(tx, actor, {
      entity: "case_study",
      entityId: id,
      action: "published",
      before: { slug: row.slug },
      after: { slug: draft.slug },
    });
  });
}

/** Takes a case study off the site (its draft is kept; publishing again brings it back). */
export async function unpublishCaseStudy(db: Database, actor: Actor, id: number): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(caseStudy)
      .set({ published: null, slug: null, publishedAt: null, ogImage: null })
      .where(and(eq(caseStudy.id, id), isNotNull(caseStudy.published)))
      .returning({ slug: sql<string>`${caseStudy.draft}->>'slug'` });
    if (!row) throw invalidInput("This case study is not published.");
    await recordAudit(tx, actor, { entity: "case_study", entityId: id, action: "unpublished", after: { slug: row.slug } });
  });
}

/**
 * Moves a case study one place up or down in the order of /projects (swaps with its neighbour).
 *
 * @returns false when it is already first (up) or last (down).
 */
export async function moveCaseStudy(db: Database, actor: Actor, id: number, direction: "up" | "down"): Promise<boolean> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: caseStudy.id, position: caseStudy.position })
      .from(caseStudy)
      .orderBy(asc(caseStudy.position), asc(caseStudy.id))
      .for("update");
    const index = rows.findIndex((r) => r.id === id);
    if (index < 0) throw notFound("Case study not found");
    const other = rows[direction === "up" ? index - 1 : index + 1];
    if (!other) return false;
    // Renumber 1…n in the new order (positions may have gaps or ties).
    const order = rows.map((r) => r.id);
    order[index] = other.id;
    order[rows.indexOf(other)] = id;
    for (const [i, caseStudyId] of order.entries()) {
      await tx
        .update(caseStudy)
        .set({ position: i + 1 })
        .where(eq(caseStudy.id, caseStudyId));
    }
    await recordAudit(tx, actor, { entity: "case_study", entityId: id, action: `moved-${direction}` });
    return true;
  });
}

/** Features a case study on the home page at `featuredPosition` (1 = first), or stops featuring it (null). */
export async function setCaseStudyFeatured(db: Database, actor: Actor, id: number, featuredPosition: number | null): Promise<void> {
  assertRole(actor, "admin");
  if (featuredPosition !== null && !(Number.isInteger(featuredPosition) && featuredPosition >= 1 && featuredPosition <= 99)) {
    throw fieldError("featuredPosition", "Choose a place from 1 to 99, or leave it empty.");
  }
  await db.transaction(async (tx) => {
    const [row] = await tx.update(caseStudy).set({ featuredPosition }).where(eq(caseStudy.id, id)).returning({ id: caseStudy.id });
    if (!row) throw notFound("Case study not found");
    await recordAudit(tx, actor, { entity: "case_study", entityId: id, action: "featured", after: { featuredPosition } });
  });
}

/** Replaces the draft's screenshots (the images use-cases call it; alt text is required on each). */
export async function setDraftImages(q: Queryable, actor: Actor, id: number, images: CaseStudyImageRef[], action: string): Promise<void> {
  assertRole(actor, "admin");
  if (images.some((image) => !image.alt.trim())) throw fieldError("alt", "Describe the screenshot for people who cannot see it.");
  const [row] = await q
    .update(caseStudy)
    .set({ draft: sql`jsonb_set(${caseStudy.draft}, '{images}', ${JSON.stringify(images)}::jsonb)`, draftUpdatedAt: new Date() })
    .where(eq(caseStudy.id, id))
    .returning({ id: caseStudy.id });
  if (!row) throw notFound("Case study not found");
  await recordAudit(q, actor, { entity: "case_study", entityId: id, action, after: { images: images.length } });
}

/** What "Make a case study draft" reads from a delivered project. */
export interface DeliveredProjectSource {
  proposalId: number;
  /** Only a completed project can become a case study. */
  completed: boolean;
  projectName: string;
  scope: string;
  items: string[];
}

/**
 * Reads a project's name, its offer's scope and line items (what a case study draft is made of).
 *
 * @throws {AppError} 404 when missing.
 */
export async function readDeliveredProject(db: Queryable, actor: Actor, proposalId: number): Promise<DeliveredProjectSource> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({
      status: proposal.status,
      projectName: proposal.projectName,
      details: proposal.projectDetails,
      offerName: proposalOffer.projectName,
      scope: proposalOffer.scope,
      items: proposalOffer.items,
    })
    .from(proposal)
    .leftJoin(proposalOffer, eq(proposalOffer.proposalId, proposal.id))
    .where(eq(proposal.id, proposalId));
  if (!row) throw notFound("Proposal not found");
  return {
    proposalId,
    completed: row.status === "completed",
    projectName: row.offerName || row.projectName || `Project ${proposalId}`,
    scope: row.scope || row.details,
    items: (row.items ?? []).map((item) => item.description).filter(Boolean),
  };
}

/** @returns the draft content prefilled from a delivered project (nothing here is published until the admin publishes). */
export function draftFromDeliveredProject(source: DeliveredProjectSource): Partial<CaseStudyContent> {
  return {
    summary: source.scope.split(/\n\s*\n/)[0]!.slice(0, 300),
    solution: source.scope,
    features: source.items.slice(0, 20),
  };
}

/** @returns the case study already drafted from a proposal, if any. */
export async function caseStudyOfProposal(db: Queryable, proposalId: number): Promise<number | null> {
  const [row] = await caseStudyOfProposalQuery(db, proposalId);
  return row?.id ?? null;
}

/** {@link caseStudyOfProposal} as one unexecuted query (column `id`, at most one row), to embed in a page's statement. */
function caseStudyOfProposalQuery(db: Queryable, proposalId: number) {
  return db.select({ id: caseStudy.id }).from(caseStudy).where(eq(caseStudy.sourceProposalId, proposalId)).limit(1);
}

/** @returns the Open Graph PNG of a published case study, or null. */
export async function readOgImage(db: Queryable, id: number): Promise<Uint8Array | null> {
  const [row] = await db
    .select({ ogImage: caseStudy.ogImage })
    .from(caseStudy)
    .where(and(eq(caseStudy.id, id), isNotNull(caseStudy.published)));
  return row?.ogImage ?? null;
}

/** Stores an Open Graph image made later (the seeded case studies get theirs at first request). */
export async function storeOgImage(db: Queryable, id: number, png: Uint8Array): Promise<void> {
  await db
    .update(caseStudy)
    .set({ ogImage: png })
    .where(and(eq(caseStudy.id, id), isNotNull(caseStudy.published)));
}

/** @returns the published case study with this id (the Open Graph route), or null. */
export async function findPublishedCaseStudyById(db: Queryable, id: number): Promise<PublishedCaseStudy | null> {
  const [row] = await db
    .select({ id: caseStudy.id, content: caseStudy.published, publishedAt: caseStudy.publishedAt })
    .from(caseStudy)
    .where(and(eq(caseStudy.id, id), isNotNull(caseStudy.published)));
  return row ? { id: row.id, content: row.content!, publishedAt: row.publishedAt! } : null;
}

/**
 * The admin proposal page's portfolio links: the case study whose "Start a project like this"
 * brought the proposal, and the case study drafted from it.
 */
export async function portfolioLinksOf(
  db: Queryable,
  actor: Actor,
  proposalId: number,
): Promise<{ source: { id: number; title: string } | null; drafted: number | null }> {
  assertRole(actor, "admin");
  // One statement (issue #42): the source case study joined, the drafted one a sub-select (its own
  // `case_study` scope).
  const [row] = await db
    .select({
      sourceId: caseStudy.id,
      sourceTitle: sql<string | null>`${caseStudy.draft}->>'title'`,
      drafted: sql<number | null>`${caseStudyOfProposalQuery(db, proposalId)}`.mapWith((id: unknown) => (id === null ? null : Number(id))),
    })
    .from(proposal)
    .leftJoin(caseStudy, eq(caseStudy.id, proposal.sourceCaseStudyId))
    .where(eq(proposal.id, proposalId));
  return {
    source: row?.sourceId == null ? null : { id: row.sourceId, title: row.sourceTitle! },
    drafted: row?.drafted ?? null,
  };
}
