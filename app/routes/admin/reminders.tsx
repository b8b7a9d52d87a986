import { Link } from "react-router";
import type { Route } from "./+types/reminders";
import { PageHeading } from "#app/components/page-heading";
import { getReminderTarget, listRemindersFor, reminderTargetKind, sendReminderNow } from "#app/features/reminders/admin-reminders.server";
import { RemindersPanel, SEND_NOW_INTENT } from "#app/features/reminders/components/reminders-panel";
import { REMINDER_MESSAGES } from "#app/features/reminders/reminders.messages";
import { notFound } from "#app/lib/errors";
import { retryAfterHeaders, runIntent } from "#app/lib/form-action.server";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Reminders: ${data?.target.title ?? "record"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** A refused "send now" keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

function targetOf(params: { recordKind?: string; recordId?: string }) {
  const kind = reminderTargetKind(params.recordKind);
  if (!kind) throw notFound(REMINDER_MESSAGES.notFound);
  return { kind, id: paramId(params.recordId, REMINDER_MESSAGES.notFound) };
}

/** A record's reminders (docs/product.md#reminders-admin). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const { kind, id } = targetOf(params);
  const target = await getReminderTarget(db, actor, kind, id);
  return { target, history: await listRemindersFor(db, actor, kind, id) };
}

/** `send-now`: at most one reminder per record per hour (429 otherwise), audited. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const { kind, id } = targetOf(args.params);
  return runIntent(args, {
    [SEND_NOW_INTENT]: async () => {
      await sendReminderNow(db, actor, kind, id);
      return REMINDER_MESSAGES.sentNow;
    },
  });
}

/** /admin/reminders/:recordKind/:recordId: the history and "Send reminder now" (also the no-JavaScript answer of the panels). */
export default function AdminReminders({ loaderData, actionData }: Route.ComponentProps) {
  const { target, history } = loaderData;
  return (
    <>
      <PageHeading title={`Reminders: ${target.title}`} lead="Automatic reminders and reminders sent by an admin.">
        <Link to={target.href} className="text-brand-700 underline">
          ← Back to the {target.kind}
        </Link>
      </PageHeading>
      <RemindersPanel kind={target.kind} id={target.id} history={history} reply={actionData ?? null} />
    </>
  );
}
