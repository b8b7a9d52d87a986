import type { Route } from "./+types/payout-export";
import { exportPayoutForAdmin } from "#app/features/referrals/commissions.admin.server";
import { PAYOUT_MESSAGES } from "#app/features/referrals/payouts.messages";
import { actorAndDb } from "#app/features/users/session.server";
import { csvResponse } from "#app/lib/csv.server";
import { notFound } from "#app/lib/errors";
import { parseId } from "#app/lib/ids";
import { PAYOUT_ENTRY_COLUMNS } from "./csv-exports.server";

/** The CSV of one payout: its entries, with the payout's id, ambassador and reference on each line (docs/product.md#commissions-payouts). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const payoutId = parseId(params.payoutId);
  if (payoutId === null) throw notFound(PAYOUT_MESSAGES.notFound);
  const { entries } = await exportPayoutForAdmin(db, actor, payoutId);
  return csvResponse(`payout-${payoutId}.csv`, PAYOUT_ENTRY_COLUMNS, entries);
}
