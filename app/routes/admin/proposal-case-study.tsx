import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/proposal-case-study";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { useIsSubmitting } from "#app/components/ui/form";
import { ActionNotice } from "#app/components/ui/notice";
import { filesContext } from "#app/features/files/files-context";
import { caseStudyOfProposal, readDeliveredProject } from "#app/features/portfolio/case-studies.server";
import { draftCaseStudyFromProject, projectImageFiles } from "#app/features/portfolio/from-project.server";
import { actorAndDb } from "#app/features/users/session.server";
import { notFound } from "#app/lib/errors";
import { runIntent } from "#app/lib/form-action.server";
import { parseId } from "#app/lib/ids";

export const meta: Route.MetaFunction = () => [
  { title: "Make a case study draft | Admin Console" },
  { name: "robots", content: "noindex" },
];

function proposalId(params: { proposalId?: string }): number {
  const id = parseId(params.proposalId);
  if (id === null) throw notFound("Proposal not found");
  return id;
}

/** What will prefill the draft: the project's name, scope and line items, and its conversation's images to choose from. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const id = proposalId(params);
  const source = await readDeliveredProject(db, actor, id);
  return { source, images: await projectImageFiles(db, actor, id), existing: await caseStudyOfProposal(db, id) };
}

/** `draft`: creates the draft from the project and the chosen images, then opens the editor. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const id = proposalId(args.params);
  return runIntent(args, {
    draft: async (form) => {
      const fileIds = form
        .getAll("fileId")
        .map((v) => parseId(v))
        .filter((v): v is number => v !== null);
      const caseStudyId = await draftCaseStudyFromProject(db, args.context.get(filesContext), actor, id, fileIds);
      return redirect(`/admin/case-studies/${caseStudyId}`);
    },
  });
}

/** /admin/proposals/:proposalId/case-study (issue #40): "Make a case study draft" from a delivered project, in one click. */
export default function ProposalCaseStudy({ loaderData, actionData }: Route.ComponentProps) {
  const { source, images, existing } = loaderData;
  const pending = useIsSubmitting();
  return (
    <div className="max-w-3xl">
      <PageHeading
        title="Make a case study draft"
        lead={<Link to={`/admin/proposals/${source.proposalId}`}>← Back to the proposal</Link>}
      />
      <ActionNotice result={actionData} className="mb-4" />
      {existing ? (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          A case study was already drafted from this project:{" "}
          <Link to={`/admin/case-studies/${existing}`} className="font-semibold underline">
            open it
          </Link>
          . You can still make another.
        </p>
      ) : null}
      {source.completed ? null : (
        <p className="mb-4 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-slate-800">
          Only a completed project can become a case study: mark it completed first.
        </p>
      )}
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 sm:p-6">
        <input type="hidden" name="intent" value="draft" />
        <dl className="grid gap-2">
          <dt className="text-sm font-semibold text-slate-600">Title</dt>
          <dd>{source.projectName}</dd>
          <dt className="text-sm font-semibold text-slate-600">The Solution (from the offer's scope)</dt>
          <dd className="whitespace-pre-line text-slate-800">{source.scope || "—"}</dd>
          <dt className="text-sm font-semibold text-slate-600">Key Features (from the offer's line items)</dt>
          <dd>{source.items.length ? source.items.join(" · ") : "—"}</dd>
        </dl>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-semibold text-slate-800">Screenshots from the conversation's files</legend>
          {images.length ? (
            images.map((file) => (
              <label key={file.id} className="flex items-center gap-2">
                <input type="checkbox" name="fileId" value={file.id} /> {file.name}
              </label>
            ))
          ) : (
            <p className="text-sm text-slate-700">The conversation has no image files.</p>
          )}
        </fieldset>
        <p className="text-sm text-slate-700">Nothing is published: you edit the draft, and name the client only with their consent.</p>
        <div>
          <SubmitButton pending={pending} pendingLabel="Making the draft…">
            Make the draft
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
