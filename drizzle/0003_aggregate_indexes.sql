-- Issue #7: admin aggregates read from small covering indexes instead of whole tables
-- (drizzle's index builder has no INCLUDE, hence hand-written).
-- Overdue invoices (unpaid, due before today): counted and summed from this index alone.
CREATE INDEX invoice_unpaid_due_idx ON invoice (due_date) INCLUDE (total_cents) WHERE status = 'unpaid';
--> statement-breakpoint
-- Commission totals over all ambassadors: only approved or paid ambassador proposals.
CREATE INDEX proposal_commission_idx ON proposal (id) INCLUDE (budget_cents, client_approved_at, commission_paid_at, commission_paid_cents)
  WHERE ambassador_id IS NOT NULL AND (client_approved_at IS NOT NULL OR commission_paid_at IS NOT NULL);
--> statement-breakpoint
-- …joined to their invoice totals.
CREATE INDEX invoice_proposal_total_idx ON invoice (proposal_id) INCLUDE (total_cents);
