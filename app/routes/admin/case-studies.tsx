import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/case-studies";
import { PageHeading } from "#app/components/page-heading";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { useIsSubmitting } from "#app/components/ui/form";
import { ActionNotice } from "#app/components/ui/notice";
import { createCaseStudy, listCaseStudiesForAdmin, moveCaseStudy, setCaseStudyFeatured } from "#app/features/portfolio/case-studies.server";
import { CASE_STUDY_LIMITS } from "#app/features/portfolio/case-study.schema";
import { actorAndDb } from "#app/features/users/session.server";
import { fieldError } from "#app/lib/errors";
import { formId, formText, runIntent } from "#app/lib/form-action.server";

export const meta: Route.MetaFunction = () => [{ title: "Case studies | Admin Console" }, { name: "robots", content: "noindex" }];

/** Every case study in the order of /projects, with its status and the requests it brought. */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return { caseStudies: await listCaseStudiesForAdmin(db, actor) };
}

/** `create` (→ the editor), `move-up` / `move-down`, `feature` (place on the home page, empty: not featured). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    create: async (form) => {
      const title = formText(form, "title").trim();
      if (!title) throw fieldError("title", "Title is required.");
      if (title.length > CASE_STUDY_LIMITS.title) throw fieldError("title", `Title must be at most ${CASE_STUDY_LIMITS.title} characters.`);
      const id = await createCaseStudy(db, actor, { title });
      return redirect(`/admin/case-studies/${id}`);
    },
    "move-up": async (form) => ((await moveCaseStudy(db, actor, formId(form), "up")) ? "Moved up." : "Already first."),
    "move-down": async (form) => ((await moveCaseStudy(db, actor, formId(form), "down")) ? "Moved down." : "Already last."),
    feature: async (form) => {
      const value = formText(form, "featuredPosition").trim();
      if (value && !/^\d{1,2}$/.test(value)) throw fieldError("featuredPosition", "Choose a place from 1 to 99, or leave it empty.");
      await setCaseStudyFeatured(db, actor, formId(form), value ? Number(value) : null);
      return value ? `Featured on the home page at place ${Number(value)}.` : "No longer featured on the home page.";
    },
  });
}

/** /admin/case-studies (issue #40): the portfolio's case studies — order, featuring, status, requests — and a new draft. */
export default function AdminCaseStudies({ loaderData, actionData }: Route.ComponentProps) {
  const creating = useIsSubmitting("/admin/case-studies");
  return (
    <>
      <PageHeading
        title="Case studies"
        lead="The portfolio's projects as the site shows them. Edit a draft, preview it, then publish; the order here is the order on /projects."
      >
        <Link to="/admin/testimonials" className={buttonClass()}>
          Testimonials
        </Link>
      </PageHeading>
      <ActionNotice result={actionData} className="mb-4" />
      <Form method="post" className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 p-4">
        <input type="hidden" name="intent" value="create" />
        <div className="min-w-64 flex-1">
          <InputField
            id="new-title"
            name="title"
            label="New case study title"
            required
            maxLength={CASE_STUDY_LIMITS.title}
            errors={actionData && !actionData.ok && actionData.intent === "create" ? [actionData.message ?? ""] : undefined}
          />
        </div>
        <SubmitButton pending={creating} pendingLabel="Creating…">
          New draft
        </SubmitButton>
      </Form>
      {loaderData.caseStudies.length === 0 ? (
        <p className="text-slate-700">No case studies yet. Create the first draft above, or make one from a completed project.</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Case studies in the order of the Projects page">
          {loaderData.caseStudies.map((cs, i) => (
            <li
              key={cs.id}
              className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-semibold">
                  <Link to={`/admin/case-studies/${cs.id}`} className="underline underline-offset-2 hover:text-brand-700">
                    {cs.title}
                  </Link>
                </p>
                <p className="text-sm break-all text-slate-600">/{cs.slug}</p>
                <p className="mt-1 flex flex-wrap gap-2 text-sm">
                  {cs.status === "published" ? <Badge tone="green">Published</Badge> : <Badge tone="gray">Draft</Badge>}
                  {cs.unpublishedChanges ? <Badge tone="amber">Unpublished changes</Badge> : null}
                  {cs.featuredPosition !== null ? <Badge tone="violet">{`Featured #${cs.featuredPosition}`}</Badge> : null}
                  <span className="text-slate-700" data-testid={`requests-${cs.slug}`}>
                    {cs.requests === 1 ? "1 request" : `${cs.requests} requests`}
                  </span>
                </p>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                <Form method="post" className="flex items-end gap-2">
                  <input type="hidden" name="intent" value="feature" />
                  <input type="hidden" name="id" value={cs.id} />
                  <div className="w-28">
                    <InputField
                      id={`featured-${cs.id}`}
                      name="featuredPosition"
                      label="Home place"
                      inputMode="numeric"
                      pattern="[0-9]{1,2}"
                      defaultValue={cs.featuredPosition ?? ""}
                      hint="Empty: not featured"
                    />
                  </div>
                  <button type="submit" className={buttonClass()} aria-label={`Save the home place of ${cs.title}`}>
                    Save
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="id" value={cs.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="move-up"
                    disabled={i === 0}
                    className={buttonClass()}
                    aria-label={`Move ${cs.title} up`}
                  >
                    ↑
                  </button>{" "}
                  <button
                    type="submit"
                    name="intent"
                    value="move-down"
                    disabled={i === loaderData.caseStudies.length - 1}
                    className={buttonClass()}
                    aria-label={`Move ${cs.title} down`}
                  >
                    ↓
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
