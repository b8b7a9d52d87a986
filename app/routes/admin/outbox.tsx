import { Form } from "react-router";
import type { Route } from "./+types/outbox";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { buttonClass } from "#app/components/ui/button";
import { usePendingIntent } from "#app/components/ui/confirm";
import { DataTable, useActionHref, type Column } from "#app/components/ui/data-table";
import { ActionNotice } from "#app/components/ui/notice";
import { OUTBOX_LIST_LIMIT, listOutboxForAdmin, retryOutboxMail } from "#app/features/mail/outbox-admin.server";
import { formId, runIntent } from "#app/lib/form-action.server";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Mail outbox | Admin Console" }, { name: "robots", content: "noindex" }];

/** Failed and pending mails (docs/product.md#admin-outbox). */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const outbox = await listOutboxForAdmin(db, actor);
  const plain = (rows: typeof outbox.failed) =>
    rows.map((r) => ({
      ...r,
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
      failedAt: r.failedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  return { ...outbox, failed: plain(outbox.failed), pending: plain(outbox.pending), limit: OUTBOX_LIST_LIMIT };
}

/** `retry`: back in the queue for an attempt now, with a fresh attempt budget (audited). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    retry: async (form) => {
      const mail = await retryOutboxMail(db, actor, formId(form));
      return `"${mail.subject}" to ${mail.to} will be sent again within a few seconds.`;
    },
  });
}

type Row = Route.ComponentProps["loaderData"]["failed"][number];

/** /admin/outbox: failed mails with their last error and a Retry button, then the queue. */
export default function AdminOutbox({ loaderData, actionData }: Route.ComponentProps) {
  const { failed, pending, failedCount, pendingCount, limit } = loaderData;
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
        lead="Mails not sent yet. A mail is tried up to 10 times over about a day; then it is marked failed until you retry it."
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
    </>
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
