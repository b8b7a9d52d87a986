-- Issue #7: exact dashboard counts without scanning whole tables.
-- Each statement that writes proposal, invoice or "user" rows appends one delta row per
-- bucket it changed to "tally" (statement-level triggers with transition tables): no shared
-- counter row, so concurrent writers never wait on each other or deadlock. Readers sum
-- the deltas (app/db/tally.server.ts), which also folds them into one row per bucket.
CREATE FUNCTION tally_delta() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bucket_sql text := TG_ARGV[1];
  cents_sql text := TG_ARGV[2];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM tally WHERE entity = TG_ARGV[0];
    RETURN NULL;
  END IF;
  EXECUTE format(
    'INSERT INTO tally (entity, bucket, n, cents)
       SELECT %L, bucket, sum(n), sum(cents) FROM (%s) AS d
       GROUP BY bucket HAVING sum(n) <> 0 OR sum(cents) <> 0',
    TG_ARGV[0],
    CASE TG_OP
      WHEN 'INSERT' THEN format('SELECT %s AS bucket, 1 AS n, %s AS cents FROM new_rows', bucket_sql, cents_sql)
      WHEN 'DELETE' THEN format('SELECT %s AS bucket, -1 AS n, -(%s) AS cents FROM old_rows', bucket_sql, cents_sql)
      ELSE format('SELECT %1$s AS bucket, 1 AS n, %2$s AS cents FROM new_rows UNION ALL SELECT %1$s, -1, -(%2$s) FROM old_rows', bucket_sql, cents_sql)
    END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER proposal_tally_insert AFTER INSERT ON proposal REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('proposal', 'status', '0');
--> statement-breakpoint
CREATE TRIGGER proposal_tally_update AFTER UPDATE ON proposal REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('proposal', 'status', '0');
--> statement-breakpoint
CREATE TRIGGER proposal_tally_delete AFTER DELETE ON proposal REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('proposal', 'status', '0');
--> statement-breakpoint
CREATE TRIGGER proposal_tally_truncate AFTER TRUNCATE ON proposal
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('proposal', '', '');
--> statement-breakpoint
CREATE TRIGGER invoice_tally_insert AFTER INSERT ON invoice REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice', 'status', 'total_cents');
--> statement-breakpoint
CREATE TRIGGER invoice_tally_update AFTER UPDATE ON invoice REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice', 'status', 'total_cents');
--> statement-breakpoint
CREATE TRIGGER invoice_tally_delete AFTER DELETE ON invoice REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice', 'status', 'total_cents');
--> statement-breakpoint
CREATE TRIGGER invoice_tally_truncate AFTER TRUNCATE ON invoice
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('invoice', '', '');
--> statement-breakpoint
CREATE TRIGGER user_tally_insert AFTER INSERT ON "user" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('user', $$coalesce(role, 'client') || CASE WHEN banned THEN ':inactive' ELSE ':active' END$$, '0');
--> statement-breakpoint
CREATE TRIGGER user_tally_update AFTER UPDATE ON "user" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('user', $$coalesce(role, 'client') || CASE WHEN banned THEN ':inactive' ELSE ':active' END$$, '0');
--> statement-breakpoint
CREATE TRIGGER user_tally_delete AFTER DELETE ON "user" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('user', $$coalesce(role, 'client') || CASE WHEN banned THEN ':inactive' ELSE ':active' END$$, '0');
--> statement-breakpoint
CREATE TRIGGER user_tally_truncate AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('user', '', '');
--> statement-breakpoint
INSERT INTO tally (entity, bucket, n, cents)
  SELECT 'proposal', status, count(*), 0 FROM proposal GROUP BY status
  UNION ALL SELECT 'invoice', status, count(*), coalesce(sum(total_cents), 0) FROM invoice GROUP BY status
  UNION ALL SELECT 'user', coalesce(role, 'client') || CASE WHEN banned THEN ':inactive' ELSE ':active' END, count(*), 0 FROM "user" GROUP BY 2;
