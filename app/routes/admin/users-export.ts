import type { Route } from "./+types/users-export";
import { servicesContext } from "#app/context";
import { exportUsersForAdmin, userListFiltersFrom, type AdminUserRow } from "#app/features/users/users.server";
import { csvResponse, type CsvColumn } from "#app/lib/csv.server";
import { requireUser } from "#app/features/users/session.server";

const COLUMNS: CsvColumn<AdminUserRow>[] = [
  { header: "ID", value: (u) => u.id },
  { header: "Name", value: (u) => u.name },
  { header: "Business", value: (u) => u.businessName },
  { header: "E-mail", value: (u) => u.email },
  { header: "Role", value: (u) => u.role },
  { header: "Active", value: (u) => (u.active ? "yes" : "no") },
  { header: "Created at (UTC)", value: (u) => u.createdAt },
  { header: "Last login (UTC)", value: (u) => u.lastLoginAt },
];

/** `/admin/users/export.csv`: the user list with its current search and role filter, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const rows = await exportUsersForAdmin(db, requireUser(context), userListFiltersFrom(new URL(request.url).searchParams));
  return csvResponse(`users-${new Date().toISOString().slice(0, 10)}.csv`, COLUMNS, rows);
}
