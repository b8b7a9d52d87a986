-- Issue #30: the admin dashboard's money and revision counts without a scan per request.
-- 1. invoice.paid_cents: the sum of the invoice's payments (positive rows; refunds are not
--    subtracted, as in the balance rule of ADR 013), kept by a statement-level trigger on payments
--    in the transaction that writes them.
ALTER TABLE "invoice" ADD COLUMN "paid_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "invoice" i SET "paid_cents" = p.cents
  FROM (SELECT invoice_id, sum(amount_cents)::int AS cents FROM payments WHERE amount_cents > 0 GROUP BY invoice_id) p
  WHERE p.invoice_id = i.id;--> statement-breakpoint
CREATE FUNCTION invoice_paid_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE invoice i SET paid_cents = i.paid_cents + d.cents
      FROM (SELECT invoice_id, sum(amount_cents)::int AS cents FROM new_rows WHERE amount_cents > 0 GROUP BY invoice_id) d
      WHERE i.id = d.invoice_id AND d.cents <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE invoice i SET paid_cents = i.paid_cents - d.cents
      FROM (SELECT invoice_id, sum(amount_cents)::int AS cents FROM old_rows WHERE amount_cents > 0 GROUP BY invoice_id) d
      WHERE i.id = d.invoice_id AND d.cents <> 0;
  ELSE
    UPDATE invoice i SET paid_cents = i.paid_cents + d.cents
      FROM (SELECT invoice_id, sum(cents)::int AS cents FROM (
              SELECT invoice_id, amount_cents AS cents FROM new_rows WHERE amount_cents > 0
              UNION ALL SELECT invoice_id, -amount_cents FROM old_rows WHERE amount_cents > 0) x
            GROUP BY invoice_id) d
      WHERE i.id = d.invoice_id AND d.cents <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER payments_paid_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_delta();--> statement-breakpoint
CREATE TRIGGER payments_paid_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_delta();--> statement-breakpoint
CREATE TRIGGER payments_paid_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_delta();--> statement-breakpoint
CREATE FUNCTION invoice_paid_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE invoice SET paid_cents = 0 WHERE paid_cents <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER payments_paid_truncate AFTER TRUNCATE ON payments
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_truncate();--> statement-breakpoint
-- 2. Tally 'invoice_due': the unpaid invoices per due date ('YYYY-MM-DD'), with their balance due
--    in cents; paid invoices in the bucket 'paid'. Overdue = the buckets before today (UTC).
CREATE TRIGGER invoice_due_tally_insert AFTER INSERT ON invoice REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice_due', $$CASE WHEN status = 'unpaid' THEN due_date::text ELSE 'paid' END$$, 'greatest(0, total_cents - paid_cents)');--> statement-breakpoint
CREATE TRIGGER invoice_due_tally_update AFTER UPDATE ON invoice REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice_due', $$CASE WHEN status = 'unpaid' THEN due_date::text ELSE 'paid' END$$, 'greatest(0, total_cents - paid_cents)');--> statement-breakpoint
CREATE TRIGGER invoice_due_tally_delete AFTER DELETE ON invoice REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice_due', $$CASE WHEN status = 'unpaid' THEN due_date::text ELSE 'paid' END$$, 'greatest(0, total_cents - paid_cents)');--> statement-breakpoint
CREATE TRIGGER invoice_due_tally_truncate AFTER TRUNCATE ON invoice
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice_due', '', '');--> statement-breakpoint
INSERT INTO tally (entity, bucket, n, cents)
  SELECT 'invoice_due', CASE WHEN status = 'unpaid' THEN due_date::text ELSE 'paid' END, count(*), coalesce(sum(greatest(0, total_cents - paid_cents)), 0)
  FROM invoice GROUP BY 2;--> statement-breakpoint
-- 3. Tally reads by entity through an index (the tally now holds a bucket per due date).
CREATE INDEX "tally_entity_idx" ON "tally" USING btree ("entity");--> statement-breakpoint
-- 4. Revision requests (in review with a comment): a partial index, so counting them reads only them.
CREATE INDEX "proposal_revision_requested_idx" ON "proposal" USING btree ("id") WHERE "status" = 'review' AND "revision_comment" <> '';
