import { countOf } from "#app/lib/vocabulary";
import { useNavigation } from "react-router";
import type { Route } from "./+types/users";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, ConfirmPanel, useIsConfirming } from "#app/components/ui/confirm";
import { DataTable, ExportCsvLink, FilterSelect, ListForm, Pager, SearchBar, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { Toast } from "#app/components/ui/toast";
import {
  deleteUser,
  getUserDeletionImpact,
  listUsersForAdmin,
  setUserActive,
  type AdminUserRow,
  type UserDeletionImpact,
  userListFiltersFrom,
} from "#app/features/users/users.server";
import { unlessNotFound } from "#app/lib/errors";
import { formUserId, runIntent } from "#app/lib/form-action.server";
import { parseUserId } from "#app/lib/ids";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";
import { pausedUserIds, setRemindersPaused } from "#app/features/reminders/admin-reminders.server";
import { REMINDER_MESSAGES } from "#app/features/reminders/reminders.messages";

export const meta: Route.MetaFunction = () => [{ title: "Users | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * Non-admin users (docs/product.md#admin-users, docs/product.md#admin-lists). When the URL
 * asks to confirm a deletion, the loader also reads what the deletion would remove.
 */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters, actor, db, params } = await loadListPage(args, userListFiltersFrom, listUsersForAdmin);
  let impact: UserDeletionImpact | null = null;
  const target = parseUserId(params.get("target"));
  if (params.get("confirm") === "delete-user" && target) impact = await unlessNotFound(getUserDeletionImpact(db, actor, target));
  // docs/product.md#reminders-admin: who has reminders paused.
  const remindersPaused = await pausedUserIds(
    db,
    page.items.map((u) => u.id),
  );
  return { page, q: filters.q ?? "", role: filters.role ?? "", impact, remindersPaused };
}

/** `deactivate`, `reactivate` (sessions end at once), `pause-reminders` / `resume-reminders` and `delete-user` (ADR 004). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      deactivate: async (form) =>
        `${(await setUserActive(db, actor, formUserId(form), false)).email} is deactivated and signed out everywhere.`,
      reactivate: async (form) => `${(await setUserActive(db, actor, formUserId(form), true)).email} is active again and can sign in.`,
      "pause-reminders": async (form) => REMINDER_MESSAGES.paused((await setRemindersPaused(db, actor, formUserId(form), true)).email),
      "resume-reminders": async (form) => REMINDER_MESSAGES.resumed((await setRemindersPaused(db, actor, formUserId(form), false)).email),
      "delete-user": async (form) => {
        const removed = await deleteUser(db, actor, formUserId(form));
        return `${removed.email} was deleted${removedSummary(removed)}.`;
      },
    },
    { target: "userId" },
  );
}

/** "1 proposal", "2 proposals" (Intl.PluralRules, app/lib/vocabulary.ts). */
const plural = countOf;

function removedSummary(impact: UserDeletionImpact): string {
  const parts = [];
  if (impact.proposals) parts.push(plural(impact.proposals, "proposal"));
  if (impact.invoices) parts.push(plural(impact.invoices, "invoice"));
  if (impact.meetings) parts.push(plural(impact.meetings, "meeting"));
  return parts.length ? ` with ${parts.join(", ")}` : "";
}

const roleOptions = [
  { value: "", label: "Clients and ambassadors" },
  { value: "client", label: "Clients" },
  { value: "ambassador", label: "Ambassadors" },
] as const;

/** /admin/users: search, role filter, Deactivate/Reactivate and Delete (after confirmation with what it removes). */
export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { page, q, role, impact, remindersPaused } = loaderData;
  const isConfirming = useIsConfirming();
  const columns: Column<AdminUserRow>[] = [
    {
      header: "User",
      cell: (u) => (
        <div className="wrap-text max-w-xs min-w-32">
          <p className="font-medium">{u.businessName ?? u.name}</p>
          <p className="text-xs wrap-text text-slate-600">{u.email}</p>
        </div>
      ),
    },
    { header: "Role", cell: (u) => (u.role === "ambassador" ? "Ambassador" : "Client") },
    { header: "Created", cell: (u) => <LocalTime value={u.createdAt} /> },
    { header: "Last login", cell: (u) => <LocalTime value={u.lastLoginAt} fallback="Never" /> },
    {
      header: "Active",
      cell: (u) =>
        u.closedAt ? (
          <Badge tone="gray">Closed</Badge>
        ) : u.active ? (
          <Badge tone="green">Active</Badge>
        ) : (
          <Badge tone="red">Deactivated</Badge>
        ),
    },
    {
      header: "Reminders",
      cell: (u) => (u.closedAt ? null : <ReminderPauseSwitch user={u} paused={remindersPaused.includes(u.id)} />),
    },
    { header: <span className="sr-only">Actions</span>, cell: (u) => <UserActions user={u} /> },
  ];
  return (
    <>
      <PageHeading title="Users" lead="Clients and ambassadors. Admins are not listed.">
        <ExportCsvLink to="/admin/users/export.csv" noun="users" />
      </PageHeading>
      <SearchBar label="Search by e-mail or business name" defaultValue={q} placeholder="e.g. bakery or @example.com">
        <FilterSelect name="role" label="Role" value={role} options={roleOptions} />
      </SearchBar>
      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />
      <DataTable
        caption="Users"
        columns={columns}
        rows={page.items}
        rowKey={(u) => u.id}
        empty={q || role ? "No user matches this search." : "No users yet."}
        after={(u) =>
          isConfirming("delete-user", u.id) ? (
            <ConfirmPanel title={`Delete ${u.email}?`} intent="delete-user" fields={{ userId: u.id }} confirmLabel="Yes, delete user">
              {impact && impact.id === u.id ? <ImpactText impact={impact} /> : "This cannot be undone."}
            </ConfirmPanel>
          ) : null
        }
      />
      <Pager page={page} noun="users" shown={page.items.length} />
    </>
  );
}

/** What the deletion removes and keeps (ADR 004), in words. */
function ImpactText({ impact }: { impact: UserDeletionImpact }) {
  const removed = [plural(impact.proposals, "proposal"), plural(impact.invoices, "invoice"), plural(impact.meetings, "meeting request")];
  return (
    <>
      <p>
        Their account, sign-ins and {removed.join(", ")} will be deleted. This cannot be undone; deactivate instead to keep the records.
      </p>
      {impact.ambassadorProposals || impact.referredClients ? (
        <p className="mt-1">
          Kept, without their name: {plural(impact.ambassadorProposals, "proposal")} they submitted for clients, and{" "}
          {plural(impact.referredClients, "referred client")}.
        </p>
      ) : null}
    </>
  );
}

/**
 * The id of a row's one form (in the Actions cell): Deactivate/Reactivate and the Reminders cell's
 * switch post it, each button naming its intent, so the row writes its user id once (issue #42).
 */
const rowFormId = (user: AdminUserRow) => `user-form-${user.id}`;

function UserActions({ user }: { user: AdminUserRow }) {
  const navigation = useNavigation();
  if (user.closedAt) return <span className="text-sm text-slate-600">Closed by its holder</span>;
  const intent = user.active ? "deactivate" : "reactivate";
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("userId") === user.id && navigation.formData?.get("intent") === intent;
  return (
    <div className="flex gap-2">
      <ListForm id={rowFormId(user)} preventScrollReset>
        <input type="hidden" name="userId" value={user.id} />
        <button
          type="submit"
          name="intent"
          value={intent}
          className={buttonClass("secondary")}
          disabled={pending}
          aria-label={`${user.active ? "Deactivate" : "Reactivate"} ${user.email}`}
        >
          {pending ? (user.active ? "Deactivating…" : "Reactivating…") : user.active ? "Deactivate" : "Reactivate"}
        </button>
      </ListForm>
      <ConfirmLink kind="delete-user" target={user.id} label={`Delete ${user.email}`}>
        Delete
      </ConfirmLink>
    </div>
  );
}

/** docs/product.md#reminders-admin: the per-client "Pause reminders" switch (a toggle button, audited). */
function ReminderPauseSwitch({ user, paused }: { user: AdminUserRow; paused: boolean }) {
  const navigation = useNavigation();
  const intent = paused ? "resume-reminders" : "pause-reminders";
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("userId") === user.id && navigation.formData?.get("intent") === intent;
  return (
    // Posts the row's form (in the Actions cell, rowFormId); a closed account has neither.
    <button
      form={rowFormId(user)}
      type="submit"
      name="intent"
      value={intent}
      role="switch"
      aria-checked={paused}
      className={`${buttonClass("secondary")} ${paused ? "border-amber-700 bg-amber-50 text-amber-900" : ""}`}
      disabled={pending}
    >
      <span aria-hidden="true" className="mr-1">
        {paused ? "⏸" : "▶"}
      </span>
      {pending ? "Saving…" : "Pause reminders"}
      <span className="sr-only"> for {user.email}</span>
    </button>
  );
}
