import { Form, Link } from "react-router";
import type { Route } from "./+types/testimonials";
import { LocalTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import { ActionNotice } from "#app/components/ui/notice";
import { listCaseStudiesForAdmin } from "#app/features/portfolio/case-studies.server";
import { CONSENT_LABELS } from "#app/features/portfolio/case-study.schema";
import { approveTestimonial, listTestimonialsForAdmin, unapproveTestimonial } from "#app/features/portfolio/testimonials.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formId, formText, runIntent } from "#app/lib/form-action.server";
import { parseId } from "#app/lib/ids";

export const meta: Route.MetaFunction = () => [{ title: "Testimonials | Admin Console" }, { name: "robots", content: "noindex" }];

/** Every testimonial asked or written, and the case studies one can be shown on. */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const [testimonials, caseStudies] = await Promise.all([listTestimonialsForAdmin(db, actor), listCaseStudiesForAdmin(db, actor)]);
  return {
    testimonials: testimonials.map((t) => ({
      ...t,
      submittedAt: t.submittedAt?.toISOString() ?? null,
      approvedAt: t.approvedAt?.toISOString() ?? null,
      withdrawnAt: t.withdrawnAt?.toISOString() ?? null,
    })),
    caseStudies: caseStudies.map((cs) => ({ id: cs.id, title: cs.title })),
  };
}

/** `approve` (with the case study it shows on, or the home page only) and `unapprove`. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    approve: async (form) => {
      const caseStudy = formText(form, "caseStudyId");
      await approveTestimonial(db, actor, formId(form), caseStudy ? parseId(caseStudy) : null);
      return "Approved: it is shown on the site.";
    },
    unapprove: async (form) => {
      await unapproveTestimonial(db, actor, formId(form));
      return "Approval taken back: it is no longer shown.";
    },
  });
}

/** /admin/testimonials (issue #40): clients' testimonials; only approved ones with consent appear on the site. */
export default function AdminTestimonials({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading
        title="Testimonials"
        lead="Asked when a project is marked completed. A testimonial shows on the home page (and its case study) once you approve it, as its client consented."
      >
        <Link to="/admin/case-studies" className={buttonClass()}>
          Case studies
        </Link>
      </PageHeading>
      <ActionNotice result={actionData} className="mb-4" />
      {loaderData.testimonials.length === 0 ? (
        <p className="text-slate-700">No testimonials yet. Clients are asked for one when you mark their project completed.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {loaderData.testimonials.map((t) => (
            <li key={t.id} className="rounded-xl border border-slate-200 p-4" data-testid={`testimonial-${t.id}`}>
              <p className="font-semibold">
                <Link to={`/admin/proposals/${t.proposalId}`} className="underline underline-offset-2">
                  {t.projectName}
                </Link>{" "}
                <span className="font-normal text-slate-700">· {t.organisationName}</span>
              </p>
              <p className="mt-1 flex flex-wrap gap-2 text-sm">
                {t.withdrawnAt ? (
                  <Badge tone="red">Withdrawn</Badge>
                ) : !t.submittedAt ? (
                  <Badge tone="gray">Asked, not written yet</Badge>
                ) : t.approvedAt ? (
                  <Badge tone="green">Approved</Badge>
                ) : (
                  <Badge tone="amber">Waiting for approval</Badge>
                )}
                {t.consent ? <span className="text-slate-700">{CONSENT_LABELS[t.consent]}</span> : null}
              </p>
              {t.text ? (
                <blockquote className="mt-3 border-l-4 border-slate-300 pl-3 text-slate-800">
                  <p>“{t.text}”</p>
                  <footer className="mt-1 text-sm text-slate-700">
                    {t.authorName} · {t.rating} / 5 · written <LocalTime value={t.submittedAt!} />
                  </footer>
                </blockquote>
              ) : null}
              {t.submittedAt && !t.withdrawnAt && t.consent !== "none" ? (
                t.approvedAt ? (
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="id" value={t.id} />
                    <p className="mb-2 text-sm text-slate-700">
                      Shown on the home page{t.caseStudyTitle ? ` and on ${t.caseStudyTitle}` : ""}.
                    </p>
                    <button type="submit" name="intent" value="unapprove" className={buttonClass("danger")}>
                      Take approval back
                    </button>
                  </Form>
                ) : (
                  <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
                    <input type="hidden" name="id" value={t.id} />
                    <div className="flex flex-col gap-1">
                      <label htmlFor={`case-study-${t.id}`} className="text-sm font-medium text-slate-800">
                        Also show it on
                      </label>
                      <select
                        id={`case-study-${t.id}`}
                        name="caseStudyId"
                        defaultValue={t.suggestedCaseStudyId ?? ""}
                        className="rounded-md border border-slate-400 bg-white px-3 py-2"
                      >
                        <option value="">The home page only</option>
                        {loaderData.caseStudies.map((cs) => (
                          <option key={cs.id} value={cs.id}>
                            {cs.title}
                          </option>
                        ))}
                      </select>
                    </div>
                    <button type="submit" name="intent" value="approve" className={buttonClass("primary", "md")}>
                      Approve
                    </button>
                  </Form>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
