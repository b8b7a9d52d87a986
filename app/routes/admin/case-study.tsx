import { Form, Link } from "react-router";
import type { Route } from "./+types/case-study";
import { LocalTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import { CardSection } from "#app/components/ui/card-section";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextArea, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { ActionNotice } from "#app/components/ui/notice";
import { filesContext } from "#app/features/files/files-context";
import {
  contentAsForm,
  getCaseStudyForAdmin,
  publishCaseStudy,
  saveCaseStudyDraft,
  unpublishCaseStudy,
} from "#app/features/portfolio/case-studies.server";
import { caseStudyDraftSchema, CASE_STUDY_LIMITS } from "#app/features/portfolio/case-study.schema";
import { screenshotImage } from "#app/features/portfolio/case-study-view.server";
import { addScreenshot, editScreenshots } from "#app/features/portfolio/images.server";
import { renderOgImage } from "#app/features/portfolio/og-image.server";
import { actorAndDb } from "#app/features/users/session.server";
import { fieldError, invalidInput, notFound } from "#app/lib/errors";
import { conformIntent, formText, requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { parseId } from "#app/lib/ids";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.draft.title ?? "Case study"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** The screenshot a button names (its position in the draft). */
function screenshotIndex(form: FormData): number {
  const value = formText(form, "index");
  if (!/^\d{1,3}$/.test(value)) throw invalidInput("The screenshots changed meanwhile. Reload the page and try again.");
  return Number(value);
}

function caseStudyId(params: { caseStudyId?: string }): number {
  const id = parseId(params.caseStudyId);
  if (id === null) throw notFound("Case study not found");
  return id;
}

/** The draft (as the form's values), whether the site shows an older copy, and the screenshots. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const cs = await getCaseStudyForAdmin(db, actor, caseStudyId(params));
  return {
    id: cs.id,
    draft: cs.draft,
    values: contentAsForm(cs.draft),
    status: cs.published ? ("published" as const) : ("draft" as const),
    publishedSlug: cs.published?.slug ?? null,
    unpublishedChanges: cs.published !== null && JSON.stringify(cs.published) !== JSON.stringify(cs.draft),
    publishedAt: cs.publishedAt?.toISOString() ?? null,
    draftUpdatedAt: cs.draftUpdatedAt.toISOString(),
    screenshots: cs.draft.images.map((ref) => ({ alt: ref.alt, src: screenshotImage(ref).src })),
    form: formConstraints(caseStudyDraftSchema),
  };
}

/**
 * `save` (the draft's fields), `publish`, `unpublish` (after confirmation), and the screenshots:
 * `add-screenshot` (an upload with its alt text), `save-alts`, `remove-screenshot`, `move-screenshot-up`/`-down`.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const id = caseStudyId(args.params);
  return runIntent(args, {
    save: conformIntent(caseStudyDraftSchema, async (value) => {
      await saveCaseStudyDraft(db, actor, id, value);
      return "Draft saved. The site is unchanged until you publish.";
    }),
    publish: async () => {
      await publishCaseStudy(db, actor, id, renderOgImage);
      return "Published: the site shows this version now.";
    },
    unpublish: async (form) => {
      requireConfirmation(form, "Confirm that the case study leaves the site.");
      await unpublishCaseStudy(db, actor, id);
      return "Unpublished: the case study is no longer on the site. Its draft is kept.";
    },
    "add-screenshot": async (form) => {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw fieldError("file", "Choose an image file.");
      await addScreenshot(db, args.context.get(filesContext), actor, id, new Uint8Array(await file.arrayBuffer()), formText(form, "alt"));
      return "Screenshot added to the draft.";
    },
    "save-alts": async (form) => {
      await editScreenshots(db, actor, id, { kind: "alts", alts: form.getAll("alt").map((v) => (typeof v === "string" ? v : "")) });
      return "Alt texts saved.";
    },
    "remove-screenshot": async (form) => {
      await editScreenshots(db, actor, id, { kind: "remove", index: screenshotIndex(form) });
      return "Screenshot removed from the draft.";
    },
    "move-screenshot-up": async (form) => {
      await editScreenshots(db, actor, id, { kind: "move", index: screenshotIndex(form), direction: "up" });
      return "Screenshot moved up.";
    },
    "move-screenshot-down": async (form) => {
      await editScreenshots(db, actor, id, { kind: "move", index: screenshotIndex(form), direction: "down" });
      return "Screenshot moved down.";
    },
  });
}

/** /admin/case-studies/:caseStudyId (issue #40): the case-study editor — draft, preview, publish. */
export default function AdminCaseStudy({ loaderData, actionData }: Route.ComponentProps) {
  const { id, values, status } = loaderData;
  const saveResult = actionData && "intent" in actionData && actionData.intent === "save" ? actionData : null;
  const [form, fields] = useAppForm({
    id: `case-study-${id}`,
    constraint: loaderData.form,
    lastResult: saveResult?.result,
    defaultValue: values,
  });
  const pending = useIsSubmitting();
  const otherResult = actionData && "intent" in actionData && actionData.intent !== "save" ? actionData : null;
  const markdownHint = "Markdown: **bold**, *italic*, [link](https://…), lists with “- ”. HTML is shown as text.";
  return (
    <>
      <PageHeading title={`Edit: ${values.title}`} lead={<Link to="/admin/case-studies">← All case studies</Link>}>
        <Link to={`/portfolio/preview/${id}`} className={buttonClass("secondary", "md")}>
          Preview draft
        </Link>
        {loaderData.publishedSlug ? (
          <a href={`/${loaderData.publishedSlug}`} className={buttonClass("secondary", "md")}>
            View on the site
          </a>
        ) : null}
      </PageHeading>

      <div className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="case-study-status">
        {status === "published" ? <Badge tone="green">Published</Badge> : <Badge tone="gray">Draft</Badge>}
        {loaderData.unpublishedChanges ? <Badge tone="amber">Unpublished changes</Badge> : null}
        {loaderData.publishedAt ? (
          <span className="text-slate-700">
            Published <LocalTime value={loaderData.publishedAt} />
          </span>
        ) : null}
        <span className="text-slate-700">
          Draft saved <LocalTime value={loaderData.draftUpdatedAt} />
        </span>
      </div>
      <ActionNotice result={otherResult} className="mb-4" />

      <div className="mb-6 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="publish" />
          <SubmitButton pending={pending} pendingLabel="Publishing…">
            {status === "published" ? "Publish changes" : "Publish"}
          </SubmitButton>
        </Form>
        {status === "published" ? (
          <Form method="post" className="flex flex-wrap items-center gap-2">
            <input type="hidden" name="intent" value="unpublish" />
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="confirm" value="yes" required /> Take it off the site
            </label>
            <button type="submit" className={buttonClass("danger", "md")}>
              Unpublish
            </button>
          </Form>
        ) : null}
      </div>

      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 sm:p-6">
        <input type="hidden" name="intent" value="save" />
        <FormMessage id={form.errorId} errors={form.errors} success={saveResult?.ok ? saveResult.message : null} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.title} label="Title" />
          <TextInput field={fields.slug} label="Slug (the page's address)" hint="Lowercase letters, digits and hyphens: /your-slug" />
        </div>
        <TextArea field={fields.summary} label="Summary" rows={2} hint="One or two sentences: the cards and the page's header." />
        <TextArea field={fields.description} label="Description (optional)" rows={3} hint={markdownHint} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextInput field={fields.role} label="Role" />
          <TextInput field={fields.timeline} label="Timeline" />
          <TextInput field={fields.outcome} label="Outcome" />
        </div>
        <TextInput field={fields.color} label="Colour" hint="A hex colour like #4338ca: the summary box and the link preview image." />
        <TextArea field={fields.problem} label="The Problem" rows={4} hint={markdownHint} />
        <TextArea field={fields.solution} label="The Solution" rows={4} hint={markdownHint} />
        <TextArea field={fields.features} label="Key Features" rows={5} hint="One feature per line." />
        <TextInput field={fields.tech} label="Technologies Used" hint="Separated by commas." />
        <TextArea field={fields.impact} label="Impact" rows={4} hint={markdownHint} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.github} label="GitHub link" type="url" />
          <TextInput field={fields.live} label="Live site link" type="url" />
        </div>
        <div>
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save draft
          </SubmitButton>
        </div>
      </Form>

      <CardSection id="screenshots" title="Screenshots" className="mt-6">
        {loaderData.screenshots.length ? (
          <>
            <ul className="grid gap-4 sm:grid-cols-2">
              {loaderData.screenshots.map((shot, i) => (
                <li key={`${shot.src}-${i}`} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
                  <img src={shot.src} alt="" className="aspect-[16/10] w-full rounded object-cover" loading="lazy" />
                  <InputField
                    id={`alt-${i}`}
                    name="alt"
                    form="screenshot-alts"
                    label={`Alt text of screenshot ${i + 1}`}
                    required
                    maxLength={CASE_STUDY_LIMITS.alt}
                    defaultValue={shot.alt}
                  />
                  <Form method="post" className="flex flex-wrap gap-2">
                    <input type="hidden" name="index" value={i} />
                    <button type="submit" name="intent" value="move-screenshot-up" className={buttonClass()} disabled={i === 0}>
                      Move up<span className="sr-only"> screenshot {i + 1}</span>
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value="move-screenshot-down"
                      className={buttonClass()}
                      disabled={i === loaderData.screenshots.length - 1}
                    >
                      Move down<span className="sr-only"> screenshot {i + 1}</span>
                    </button>
                    <button type="submit" name="intent" value="remove-screenshot" className={buttonClass("danger")}>
                      Remove<span className="sr-only"> screenshot {i + 1}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
            <Form method="post" id="screenshot-alts" className="mt-4">
              <button type="submit" name="intent" value="save-alts" className={buttonClass("primary", "md")}>
                Save alt texts
              </button>
            </Form>
          </>
        ) : (
          <p className="text-slate-700">No screenshots yet.</p>
        )}
        <Form method="post" encType="multipart/form-data" className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-4">
          <input type="hidden" name="intent" value="add-screenshot" />
          <InputField
            id="screenshot-file"
            name="file"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/avif,image/gif"
            label="Add a screenshot"
            required
          />
          <InputField
            id="screenshot-alt"
            name="alt"
            label="Its alt text"
            required
            maxLength={CASE_STUDY_LIMITS.alt}
            hint="What the screenshot shows, for people who cannot see it."
          />
          <div>
            <SubmitButton pending={pending} pendingLabel="Uploading…">
              Upload screenshot
            </SubmitButton>
          </div>
        </Form>
      </CardSection>
    </>
  );
}
