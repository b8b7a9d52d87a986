import { and, eq, like } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import routes from "#app/routes";
import { featuredSlugs, projects } from "#app/content/projects";
import { caseStudy, mailOutbox, membership, testimonial, user } from "#app/db/schema";
import { setProposalStatus } from "#app/features/proposals/proposals.admin.server";
import { requestProposal } from "#app/features/proposals/proposals.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, parseForm, refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import {
  contentAsForm,
  createCaseStudy,
  findPublishedCaseStudy,
  getCaseStudyForAdmin,
  listCaseStudiesForAdmin,
  listFeaturedCaseStudies,
  listPublishedCaseStudies,
  moveCaseStudy,
  portfolioLinksOf,
  PUBLIC_PAGE_EVENT,
  publishCaseStudy,
  publishedCaseStudyPaths,
  saveCaseStudyDraft,
  unpublishCaseStudy,
} from "./case-studies.server";
import { caseStudyDraftSchema, RESERVED_SLUGS, slugify } from "./case-study.schema";
import { caseStudyView } from "./case-study-view.server";
import { renderMarkdown } from "./markdown.server";
import { renderOgImage } from "./og-image.server";
import {
  approveTestimonial,
  getMyTestimonial,
  listMyTestimonials,
  listShownTestimonials,
  submitTestimonial,
  withdrawTestimonial,
} from "./testimonials.server";

describe("case-study Markdown", () => {
  it("shows raw HTML as text and never links javascript:", () => {
    const html = renderMarkdown(
      "**Bold** <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.com)",
    );
    expect(html).toContain("<strong>Bold</strong>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(renderMarkdown("   ")).toBe("");
  });

  it("renders no Markdown image (screenshots are uploaded with alt text)", () => {
    expect(renderMarkdown("![a](https://evil.example/x.png)")).not.toContain("<img");
  });
});

describe("case-study slugs", () => {
  it("reserves every first path segment of the site's routes", () => {
    const segments = new Set<string>();
    type Entry = { path?: string; children?: Entry[] };
    const walk = (list: Entry[], parent: string) => {
      for (const r of list) {
        const full = [parent, r.path ?? ""].filter(Boolean).join("/");
        const first = full.split("/")[0];
        if (first && !first.startsWith(":") && first !== "*") segments.add(first.replace(/\.(xml|txt)$/, ""));
        if (r.children) walk(r.children, full);
      }
    };
    walk(routes as Entry[], "");
    const missing = [...segments].filter((s) => !RESERVED_SLUGS.has(s) && !["sitemap", "robots"].includes(s));
    expect(missing).toEqual([]);
    const slug = (value: string) => parseForm(caseStudyDraftSchema, { ...formOf("x"), slug: value }).error?.slug;
    expect(slug("admin")).toEqual(["This address is taken by a page of the site; choose another slug."]);
    expect(slug("Not A Slug")).toBeDefined();
    expect(slug("rental-platform")).toBeUndefined();
    expect(slugify("Rental Platform!")).toBe("rental-platform");
    expect(slugify("Admin")).toBe("case-study-admin");
  });
});

describe("public page invalidation", () => {
  it("re-renders the public pages on a publish, order, featuring or testimonial change, not on a draft edit", () => {
    for (const kind of [
      "case_study.published",
      "case_study.unpublished",
      "case_study.featured",
      "case_study.moved-up",
      "testimonial.approved",
      "testimonial.withdrawn",
    ]) {
      expect(PUBLIC_PAGE_EVENT.test(kind), kind).toBe(true);
    }
    for (const kind of ["case_study.draft-saved", "case_study.created", "case_study.screenshot-added", "proposal.created"]) {
      expect(PUBLIC_PAGE_EVENT.test(kind), kind).toBe(false);
    }
  });
});

describe("Open Graph image", () => {
  it("is a 1200 × 630 PNG", async () => {
    const png = await renderOgImage({
      title: "A very long title that wraps onto two lines & more",
      summary: "Summary <b>",
      color: "#123456",
    });
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
  });
});

/** A complete editor form for a case study titled `title`. */
function formOf(title: string): Record<string, string> {
  return {
    title,
    slug: slugify(title),
    summary: `${title} in one sentence.`,
    description: "",
    role: "Lead developer",
    timeline: "2026",
    outcome: "Shipped",
    color: "#4338ca",
    problem: "The problem.",
    solution: "The solution.",
    features: "One\nTwo",
    tech: "React, PostgreSQL",
    impact: "The impact.",
    github: "",
    live: "https://example.com",
  };
}

describe.each(testDatabases())("case studies on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("the migration publishes the four projects at /project1 … /project4, featured as before", async () => {
    const { t } = ctx;
    const published = await listPublishedCaseStudies(t.db);
    expect(published.map((p) => p.content.slug)).toEqual(projects.map((p) => p.slug));
    for (const [i, p] of projects.entries()) {
      const c = published[i]!.content;
      expect([c.title, c.summary, c.problem, c.solution, c.impact, c.github, c.live]).toEqual([
        p.title,
        p.description,
        p.problem,
        p.solution,
        p.impact,
        p.github,
        p.live,
      ]);
      expect(c.features).toEqual(p.features);
      expect(c.tech).toEqual(p.tech);
      expect(c.images.map((im) => im.alt)).toEqual(p.images.map((_, n) => `${p.title} screenshot ${n + 1}`));
    }
    expect((await listFeaturedCaseStudies(t.db)).map((p) => p.content.slug)).toEqual(featuredSlugs);
    expect(await publishedCaseStudyPaths(t.db)).toEqual(["/project1", "/project2", "/project3", "/project4"]);
  });

  it("a draft edit leaves the published page unchanged until publish; unpublish takes it off", async () => {
    const { t, admin } = ctx;
    const [first] = await listPublishedCaseStudies(t.db);
    const draft = parseForm(caseStudyDraftSchema, { ...contentAsForm(first!.content), impact: "New **impact**." }).value!;
    await saveCaseStudyDraft(t.db, admin, first!.id, draft);
    expect((await findPublishedCaseStudy(t.db, "project1"))!.content.impact).toBe(first!.content.impact);
    expect((await listCaseStudiesForAdmin(t.db, admin))[0]).toMatchObject({ status: "published", unpublishedChanges: true });
    // The preview renders the draft with the same view as the page.
    expect(caseStudyView(first!.id, (await getCaseStudyForAdmin(t.db, admin, first!.id)).draft).html.impact).toContain(
      "<strong>impact</strong>",
    );

    await publishCaseStudy(t.db, admin, first!.id, renderOgImage);
    expect((await findPublishedCaseStudy(t.db, "project1"))!.content.impact).toBe("New **impact**.");
    const [row] = await t.db.select({ og: caseStudy.ogImage }).from(caseStudy).where(eq(caseStudy.id, first!.id));
    expect((await sharp(row!.og!).metadata()).width).toBe(1200);

    await unpublishCaseStudy(t.db, admin, first!.id);
    expect(await findPublishedCaseStudy(t.db, "project1")).toBeNull();
    expect(await publishedCaseStudyPaths(t.db)).not.toContain("/project1");
  });

  it("a new draft needs every section before it is published, and its slug must be free", async () => {
    const { t, admin } = ctx;
    const id = await createCaseStudy(t.db, admin, { title: "Bakery Orders" });
    expect((await refusalOf(publishCaseStudy(t.db, admin, id, renderOgImage))).message).toMatch(
      /^Not published: .* Edit the draft first\.$/,
    );
    const taken = parseForm(caseStudyDraftSchema, { ...formOf("Bakery Orders"), slug: "project2" }).value!;
    const refusal = await refusalOf(saveCaseStudyDraft(t.db, admin, id, taken));
    expect([refusal.status, refusal.fieldErrors]).toEqual([409, { slug: ["Another case study uses this slug."] }]);
    await saveCaseStudyDraft(t.db, admin, id, parseForm(caseStudyDraftSchema, formOf("Bakery Orders")).value!);
    await publishCaseStudy(t.db, admin, id, renderOgImage);
    expect(await publishedCaseStudyPaths(t.db)).toEqual(["/project1", "/project2", "/project3", "/project4", "/bakery-orders"]);
    expect(await moveCaseStudy(t.db, admin, id, "up")).toBe(true);
    expect(await publishedCaseStudyPaths(t.db)).toEqual(["/project1", "/project2", "/project3", "/bakery-orders", "/project4"]);
    // Only admins.
    const client = await makeClient(ctx.s);
    expect((await refusalOf(saveCaseStudyDraft(t.db, client, id, taken))).status).toBe(403);
  });

  it("a completed project asks its owner once; first name only is shown once approved, and gone once withdrawn", async () => {
    const { t, s, admin } = ctx;
    const owner = await makeClient(s, { email: "ada@analytical.example", businessName: "Analytical Ltd" });
    const other = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: owner.id, projectName: "Engine site", status: "review" });
    await setProposalStatus(t.db, admin, proposalId, "completed");
    await setProposalStatus(t.db, admin, proposalId, "review");
    await setProposalStatus(t.db, admin, proposalId, "completed");
    const mails = await t.db
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(and(like(mailOutbox.subject, "How did%"), eq(mailOutbox.to, owner.email)));
    expect(mails).toHaveLength(1);
    const [request] = await listMyTestimonials(t.db, owner);
    expect(request).toMatchObject({ proposalId, projectName: "Engine site", submittedAt: null });
    // Another client never sees it.
    expect(await listMyTestimonials(t.db, other)).toEqual([]);
    expect((await refusalOf(getMyTestimonial(t.db, other, request!.id))).status).toBe(404);
    expect((await refusalOf(submitTestimonial(t.db, other, request!.id, { text: "x", rating: 1, consent: "name" }))).status).toBe(404);

    await submitTestimonial(t.db, owner, request!.id, { text: "Great work.", rating: 5, consent: "first_name" });
    expect(await listShownTestimonials(t.db, { limit: 3 })).toEqual([]);
    const [cs] = await listPublishedCaseStudies(t.db);
    await approveTestimonial(t.db, admin, request!.id, cs!.id);
    const shown = await listShownTestimonials(t.db, { caseStudyId: cs!.id, limit: 3 });
    expect(shown).toEqual([{ id: request!.id, text: "Great work.", rating: 5, attribution: expect.any(String) }]);
    // "First name only": the first word of the author's name, no company.
    const [author] = await t.db.select({ name: user.name }).from(user).where(eq(user.id, owner.id));
    expect(shown[0]!.attribution).toBe(author!.name.split(/\s+/)[0]);
    expect(shown[0]!.attribution).not.toContain(",");

    await withdrawTestimonial(t.db, owner, request!.id);
    expect(await listShownTestimonials(t.db, { limit: 3 })).toEqual([]);
    expect(await getMyTestimonial(t.db, owner, request!.id)).toMatchObject({ withdrawn: true, approved: false });
    // A member of the organisation (not an owner) cannot read or write it.
    await t.db.update(membership).set({ role: "member" }).where(eq(membership.userId, owner.id));
    expect((await refusalOf(getMyTestimonial(t.db, { ...owner, organisationRole: "member" }, request!.id))).status).toBe(404);
    const [row] = await t.db.select().from(testimonial).where(eq(testimonial.id, request!.id));
    expect(row!.withdrawnAt).not.toBeNull();
  });

  it("a proposal from a case study records its source, counted per case study", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const [, second] = await listPublishedCaseStudies(t.db);
    const liked = await requestProposal(
      t.db,
      client,
      { ...EMPTY, projectDetails: "Like the kitchen one" },
      { sourceCaseStudyId: second!.id },
    );
    const other = await requestProposal(t.db, client, { ...EMPTY, projectDetails: "Something else" });
    const counts = Object.fromEntries((await listCaseStudiesForAdmin(t.db, admin)).map((r) => [r.slug, r.requests]));
    expect(counts).toEqual({ project1: 0, project2: 1, project3: 0, project4: 0 });
    // The admin proposal page's portfolio links: the source case study, and the one drafted from it.
    expect(await portfolioLinksOf(t.db, admin, liked.id)).toEqual({
      source: { id: second!.id, title: second!.content.title },
      drafted: null,
    });
    expect(await portfolioLinksOf(t.db, admin, other.id)).toEqual({ source: null, drafted: null });
    const drafted = await createCaseStudy(t.db, admin, { title: "Kitchen again", sourceProposalId: other.id });
    expect(await portfolioLinksOf(t.db, admin, other.id)).toEqual({ source: null, drafted });
    expect((await refusalOf(portfolioLinksOf(t.db, client, other.id))).status).toBe(403);
  });
});

const EMPTY = {
  projectName: null,
  projectDetails: "",
  timeline: null,
  budget: null,
  targetAudience: null,
  designInspiration: null,
  numberOfPages: null,
  websiteGoal: null,
};
