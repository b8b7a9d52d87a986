/**
 * The demo data's commission ledger (issue #25, docs/product.md#commissions-ledger), in a few
 * set-based statements so `--scale` stays fast, after the demo payments and refunds are made:
 * approved ambassador proposals get the 15 % rate frozen; every payment and refund on a
 * commissionable invoice gets its ledger entry (payable 30 days after it was received); and every
 * ambassador whose entries became payable more than 30 days ago has been paid them in one payout.
 */
import { sql } from "drizzle-orm";
import type { Transaction } from "../app/db/client.server";

const DAY = 86_400_000;

/** @returns counts of what was created. */
export async function seedCommissionLedger(tx: Transaction, now: Date): Promise<{ entries: number; payouts: number }> {
  const count = async (query: ReturnType<typeof sql>) => ((await tx.execute(query)) as unknown as { rows: unknown[] }).rows.length;
  await tx.execute(sql`
    update proposal set commission_rate_bps = 1500
    where ambassador_id is not null and client_approved_at is not null and commission_rate_bps is null`);
  const entries = await count(sql`
    insert into commission_entries (ambassador_id, proposal_id, invoice_id, payment_id, kind, base_cents, rate_bps, amount_cents, currency, created_at, payable_at)
    select pr.ambassador_id, pr.id, i.id, pay.id, case when pay.amount_cents < 0 then 'refund' else 'payment' end, pay.amount_cents,
           pr.commission_rate_bps,
           case when pay.amount_cents < 0 then -((-pay.amount_cents::bigint * pr.commission_rate_bps + 5000) / 10000)
                else (pay.amount_cents::bigint * pr.commission_rate_bps + 5000) / 10000 end,
           pay.currency, pay.received_at, pay.received_at + interval '30 days'
    from payments pay
      join invoice i on i.id = pay.invoice_id
      join proposal pr on pr.id = i.proposal_id
    where pr.ambassador_id is not null and pr.client_approved_at is not null and pr.commission_rate_bps is not null
      and not exists (select 1 from commission_entries e where e.payment_id = pay.id)
    returning id`);
  const cutoff = new Date(now.getTime() - 30 * DAY);
  const paidAt = new Date(now.getTime() - 25 * DAY);
  const payouts = await count(sql`
    with sums as (
      select ambassador_id, sum(amount_cents) as total, min(currency) as currency
      from commission_entries
      where payout_id is null and payable_at < ${cutoff}
      group by ambassador_id
      having sum(amount_cents) > 0
    ), made as (
      insert into payouts (ambassador_id, total_cents, currency, reference, method, paid_at, created_at)
      select ambassador_id, total, currency, 'DEMO-' || to_char(${paidAt}::timestamptz, 'YYYYMMDD') || '-' || left(ambassador_id, 6),
             'bank_transfer', ${paidAt}, ${paidAt}
      from sums
      returning id, ambassador_id
    ), marked as (
      update commission_entries e set payout_id = made.id
      from made
      where e.ambassador_id = made.ambassador_id and e.payout_id is null and e.payable_at < ${cutoff}
      returning e.id
    )
    select id from made`);
  return { entries, payouts };
}
