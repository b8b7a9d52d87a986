-- Issue #30: the admin's past-meetings list reads the newest first through an index instead of
-- sorting every meeting joined to every user; a payment's refunded sum reads its refunds by index.
CREATE INDEX IF NOT EXISTS "meeting_starts_idx" ON "meeting" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_refund_of_idx" ON "payments" USING btree ("refund_of");
