import type { Route } from "./+types/commissions-export";
import { servicesContext } from "#app/context";
import { exportCommissionsForAdmin, type AdminAmbassadorRow } from "#app/features/referrals/commissions.admin.server";
import { csvResponse, type CsvColumn } from "#app/lib/csv.server";
import { normalizeSearch } from "#app/lib/pagination";
import { requireUser } from "#app/features/users/session.server";

const COLUMNS: CsvColumn<AdminAmbassadorRow>[] = [
  { header: "Ambassador ID", value: (a) => a.id },
  { header: "Name", value: (a) => a.name },
  { header: "E-mail", value: (a) => a.email },
  { header: "Referral code", value: (a) => a.referralCode },
  { header: "Active", value: (a) => (a.active ? "yes" : "no") },
  { header: "Referred clients", value: (a) => a.referredClients },
  { header: "Proposals", value: (a) => a.proposals },
  { header: "Client-approved proposals", value: (a) => a.approvedProposals },
  { header: "Commission owed (cents)", value: (a) => a.owedCents },
  { header: "Commission paid (cents)", value: (a) => a.paidCents },
  { header: "Joined at (UTC)", value: (a) => a.createdAt },
];

/** `/admin/ambassadors/export.csv`: the ambassador commission list with its current search, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const rows = await exportCommissionsForAdmin(db, requireUser(context), {
    q: normalizeSearch(new URL(request.url).searchParams.get("q")),
  });
  return csvResponse(`commissions-${new Date().toISOString().slice(0, 10)}.csv`, COLUMNS, rows);
}
