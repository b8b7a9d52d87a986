import { Form } from "react-router";
import type { Route } from "./+types/outbox";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { buttonClass } from "#app/components/ui/button";
import { usePendingIntent } from "#app/components/ui/confirm";
import { DataTable, useActionHref, type Column } from "#app/components/ui/data-table";
import { ActionNotice } from "#app/components/ui/notice";
import { OUTBOX_LIST_LIMIT, listOutboxForAdmin, retryOutboxMail } from "#app/features/mail/outbox-admin.server";
import { FAILED_JOBS_LIMIT, listFailedJobsForAdmin, retryFailedJob } from "#app/features/jobs/admin-jobs.server";
import { formId, formText, runIntent } from "#app/lib/form-action.server";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Mail outbox | Admin Console" }, { name: "robots", content: "noindex" }];

/** Failed and pending mails, and the other failed background jobs (docs/product.md#admin-outbox). */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const [outbox, failedJobs] = await Promise.all([listOutboxForAdmin(db, actor), listFailedJobsForAdmin(db, actor)]);
  const plain = (rows: typeof outbox.failed) =>
    rows.map((r) => ({
      ...r,
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
      failedAt: r.failedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  const jobs = failedJobs.jobs.map((j) => ({ ...j, failedAt: j.failedAt?.toISOString() ?? null, createdAt: j.createdAt.toISOString() }));
  return {
    ...outbox,
    failed: plain(outbox.failed),
    pending: plain(outbox.pending),
    limit: OUTBOX_LIST_LIMIT,
    jobs,
    jobCount: failedJobs.count,
    jobLimit: FAILED_JOBS_LIMIT,
  };
}

/** `retry`: a mail back in the queue for an attempt now, with a fresh attempt budget; `retry-job`: a failed job once more (both audited). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    retry: async (form) => {
      const mail = await retryOutboxMail(db, actor, formId(form));
      return `"${mail.subject}" to ${mail.to} will be sent again within a few seconds.`;
    },
    "retry-job": async (form) => {
      const job = await retryFailedJob(db, actor, formText(form, "jobId"));
      return `The ${job.queue} job will run again within a few seconds.`;
    },
  });
}

type Row = Route.ComponentProps["loaderData"]["failed"][number];

/** /admin/outbox: failed mails with their last error and a Retry button, then the queue. */
export default function AdminOutbox({ loaderData, actionData }: Route.ComponentProps) {
  const { failed, pending, failedCount, pendingCount, limit, jobs, jobCount, jobLimit } = loaderData;
  // The Retry button sits in the first column, so that it is in view on a phone without scrolling the table.
  const columns = (state: Row["state"]): Column<Row>[] => [
    {
      header: "Mail",
      cell: (m) => (
        <div className="min-w-48">
          <p className="font-medium break-words">{m.subject}</p>
          <p className="text-xs break-all text-slate-600">to {m.to}</p>
          <div className="mt-2">
            <RetryButton mail={m} />
          </div>
        </div>
      ),
    },
    { header: "Attempts", cell: (m) => m.attempts, className: "text-right" },
    {
      header: state === "failed" ? "Failed" : "Next attempt",
      cell: (m) => (
        <span className="whitespace-nowrap">
          <LocalTime value={(state === "failed" ? m.failedAt : m.nextAttemptAt) ?? m.createdAt} />
        </span>
      ),
    },
    {
      header: "Last error",
      cell: (m) => <span className="block max-w-80 min-w-40 font-mono text-xs break-words">{m.lastError ?? "—"}</span>,
    },
    {
      header: "Queued",
      cell: (m) => (
        <span className="whitespace-nowrap">
          <LocalTime value={m.createdAt} />
        </span>
      ),
    },
  ];
  return (
    <>
      <PageHeading
        title="Mail outbox"
        lead="Mails not sent yet, and background jobs that failed. A mail is tried up to 10 times over about a day; then it is marked failed until you retry it."
      />
      <ActionNotice result={actionData} className="mb-4" />
      <MailSection
        id="failed-heading"
        title="Failed"
        count={failedCount}
        caption="Failed mails, most recent failure first"
        columns={columns("failed")}
        rows={failed}
        empty="No failed mail."
        more={`Showing the ${limit} most recent.`}
      />
      <MailSection
        id="pending-heading"
        className="mt-8"
        title="Pending"
        count={pendingCount}
        caption="Pending mails, next attempt first"
        columns={columns("pending")}
        rows={pending}
        empty="Nothing waiting: every mail was sent."
        more={`Showing the next ${limit}.`}
      />
      <FailedJobs jobs={jobs} count={jobCount} limit={jobLimit} />
    </>
  );
}

type JobRow = Route.ComponentProps["loaderData"]["jobs"][number];

/** Background jobs (exports, sweeps…) whose last attempt failed, with a Retry button each. */
function FailedJobs({ jobs, count, limit }: { jobs: JobRow[]; count: number; limit: number }) {
  const columns: Column<JobRow>[] = [
    {
      header: "Job",
      cell: (j) => (
        <div className="min-w-48">
          <p className="font-medium">{j.queue}</p>
          <p className="font-mono text-xs break-all text-slate-600">{j.data}</p>
          <div className="mt-2">
            <RetryJobButton job={j} />
          </div>
        </div>
      ),
    },
    { header: "Attempts", cell: (j) => j.attempts, className: "text-right" },
    {
      header: "Failed",
      cell: (j) => <span className="whitespace-nowrap">{j.failedAt ? <LocalTime value={j.failedAt} /> : "—"}</span>,
    },
    {
      header: "Last error",
      cell: (j) => <span className="block max-w-80 min-w-40 font-mono text-xs break-words">{j.lastError ?? "—"}</span>,
    },
    {
      header: "Queued",
      cell: (j) => (
        <span className="whitespace-nowrap">
          <LocalTime value={j.createdAt} />
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="jobs-heading" className="mt-8">
      <h2 id="jobs-heading" className="mb-2 text-xl font-semibold">
        Failed jobs ({count.toLocaleString("en-US")})
      </h2>
      <DataTable
        caption="Failed background jobs, most recent failure first"
        columns={columns}
        rows={jobs}
        rowKey={(j) => j.id}
        empty="No failed job."
      />
      {count > jobs.length ? <p className="mt-2 text-sm text-slate-700">{`Showing the ${limit} most recent.`}</p> : null}
    </section>
  );
}

function RetryJobButton({ job }: { job: JobRow }) {
  const pending = usePendingIntent("retry-job", job.id);
  const actionHref = useActionHref();
  return (
    <Form method="post" action={actionHref} preventScrollReset>
      <input type="hidden" name="intent" value="retry-job" />
      <input type="hidden" name="id" value={job.id} />
      <input type="hidden" name="jobId" value={job.id} />
      <button type="submit" className={buttonClass("secondary")} disabled={pending} aria-label={`Retry the ${job.queue} job ${job.data}`}>
        {pending ? "Retrying…" : "Retry"}
      </button>
    </Form>
  );
}

function RetryButton({ mail }: { mail: Row }) {
  const pending = usePendingIntent("retry", mail.id);
  const actionHref = useActionHref();
  return (
    <Form method="post" action={actionHref} preventScrollReset>
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="id" value={mail.id} />
      <button type="submit" className={buttonClass("secondary")} disabled={pending} aria-label={`Retry "${mail.subject}" to ${mail.to}`}>
        {pending ? "Retrying…" : mail.state === "failed" ? "Retry" : "Send now"}
      </button>
    </Form>
  );
}

/** One outbox list: a heading with the total count, the table, and a note when the total exceeds the rows shown. */
function MailSection({
  id,
  className,
  title,
  count,
  caption,
  columns,
  rows,
  empty,
  more,
}: {
  id: string;
  className?: string;
  title: string;
  count: number;
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  empty: string;
  more: string;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="mb-2 text-xl font-semibold">
        {title} ({count.toLocaleString("en-US")})
      </h2>
      <DataTable caption={caption} columns={columns} rows={rows} rowKey={(m) => m.id} empty={empty} />
      {count > rows.length ? <p className="mt-2 text-sm text-slate-700">{more}</p> : null}
    </section>
  );
}
