ALTER TABLE "proposal" ADD CONSTRAINT "proposal_commission_paid_amount" CHECK ("proposal"."commission_paid_at" is null or "proposal"."commission_paid_cents" is not null);--> statement-breakpoint
-- Issue #7: the grand commission totals of /admin/ambassadors without aggregating every
-- approved ambassador proposal per request. Triggers keep entity 'commission' of "tally":
--   'paid'     n = paid commissions,  cents = sum of the amounts recorded at payment;
--   'owed:<m>' n = approved, unpaid commissions whose base (invoice total, else budget) has
--              base mod 10000 = m, cents = sum of (base div 10000).
-- Owed is computed at today's rate r (basis points) per proposal, rounded half up:
-- floor((base·r + 5000) / 10000) = (base div 10000)·r + floor((m·r + 5000) / 10000),
-- so the owed total at any rate is sum over buckets of cents·r + n·floor((m·r + 5000) / 10000)
-- (app/features/referrals/commissions.admin.server.ts): exact, and a rate change rewrites nothing.
-- At most 10,001 buckets, whatever the number of proposals.
CREATE FUNCTION commission_bucket(ambassador_id text, approved_at timestamptz, paid_at timestamptz, paid_cents integer, base_cents integer,
    OUT bucket text, OUT cents bigint) LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
           WHEN ambassador_id IS NULL THEN NULL
           WHEN paid_at IS NOT NULL THEN 'paid'
           WHEN approved_at IS NOT NULL AND base_cents IS NOT NULL THEN 'owed:' || (base_cents % 10000)
         END,
         CASE WHEN paid_at IS NOT NULL THEN paid_cents ELSE base_cents / 10000 END::bigint
$$;
--> statement-breakpoint
-- Adds (sign +1) or removes (sign -1) the commission of proposal p computed on base_cents.
CREATE FUNCTION commission_tally_add(p proposal, base_cents integer, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tally (entity, bucket, n, cents)
    SELECT 'commission', c.bucket, sign, sign * c.cents
    FROM commission_bucket(p.ambassador_id, p.client_approved_at, p.commission_paid_at, p.commission_paid_cents, base_cents) AS c
    WHERE c.bucket IS NOT NULL
$$;
--> statement-breakpoint
-- Updates and deletes are counted by BEFORE ROW triggers, which run as each row changes and
-- so always see the other table as it is at that moment — statement-level AFTER triggers can
-- run late: deleting a user cascades to its invoices and proposals, in either order, before
-- any of them fires. A new proposal has no invoice yet; a new invoice's proposal is read at
-- the end of its INSERT statement.
CREATE FUNCTION commission_tally_proposal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  invoice_total integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM commission_tally_add(NEW, NEW.budget_cents, 1);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF (OLD.ambassador_id, OLD.client_approved_at, OLD.commission_paid_at, OLD.commission_paid_cents, OLD.budget_cents)
       IS NOT DISTINCT FROM (NEW.ambassador_id, NEW.client_approved_at, NEW.commission_paid_at, NEW.commission_paid_cents, NEW.budget_cents) THEN
      RETURN NEW;
    END IF;
  END IF;
  -- UPDATE or DELETE: the old row stops counting; an updated row counts again as it is now.
  SELECT total_cents INTO invoice_total FROM invoice WHERE proposal_id = OLD.id;
  PERFORM commission_tally_add(OLD, coalesce(invoice_total, OLD.budget_cents), -1);
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  PERFORM commission_tally_add(NEW, coalesce(invoice_total, NEW.budget_cents), 1);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER proposal_commission_tally_insert AFTER INSERT ON proposal
  FOR EACH ROW EXECUTE FUNCTION commission_tally_proposal();
--> statement-breakpoint
CREATE TRIGGER proposal_commission_tally_change BEFORE UPDATE OR DELETE ON proposal
  FOR EACH ROW EXECUTE FUNCTION commission_tally_proposal();
--> statement-breakpoint
-- An invoice's total replaces its proposal's budget as the base: a removed invoice row stops
-- counting (the proposal falls back to its budget), an added one starts. The proposal is read
-- FOR SHARE: a concurrent approval or payment of it (whose trigger reads this invoice's total)
-- either finishes first and is seen here, or waits for this transaction and then sees the new
-- total. Writers lock the proposal before its invoice (app/features/invoices), as a cascade does.
CREATE FUNCTION commission_tally_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p proposal;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.proposal_id IS NOT DISTINCT FROM NEW.proposal_id AND OLD.total_cents IS NOT DISTINCT FROM NEW.total_cents THEN
    RETURN NEW;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO p FROM proposal WHERE id = OLD.proposal_id AND ambassador_id IS NOT NULL FOR SHARE;
    IF FOUND THEN
      PERFORM commission_tally_add(p, OLD.total_cents, -1);
      PERFORM commission_tally_add(p, p.budget_cents, 1);
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    SELECT * INTO p FROM proposal WHERE id = NEW.proposal_id AND ambassador_id IS NOT NULL FOR SHARE;
    IF FOUND THEN
      PERFORM commission_tally_add(p, p.budget_cents, -1);
      PERFORM commission_tally_add(p, NEW.total_cents, 1);
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER invoice_commission_tally_insert AFTER INSERT ON invoice
  FOR EACH ROW EXECUTE FUNCTION commission_tally_invoice();
--> statement-breakpoint
CREATE TRIGGER invoice_commission_tally_change BEFORE UPDATE OR DELETE ON invoice
  FOR EACH ROW EXECUTE FUNCTION commission_tally_invoice();
--> statement-breakpoint
-- Recounts every commission from the tables: the initial backfill below, and after a truncation.
CREATE FUNCTION commission_tally_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM tally WHERE entity = 'commission';
  INSERT INTO tally (entity, bucket, n, cents)
    SELECT 'commission', c.bucket, count(*), sum(c.cents)
    FROM proposal AS p LEFT JOIN invoice AS i ON i.proposal_id = p.id,
      LATERAL commission_bucket(p.ambassador_id, p.client_approved_at, p.commission_paid_at, p.commission_paid_cents, coalesce(i.total_cents, p.budget_cents)) AS c
    WHERE c.bucket IS NOT NULL
    GROUP BY c.bucket;
$$;
--> statement-breakpoint
CREATE FUNCTION commission_tally_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM commission_tally_recount();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER proposal_commission_tally_truncate AFTER TRUNCATE ON proposal
  FOR EACH STATEMENT EXECUTE FUNCTION commission_tally_truncate();
--> statement-breakpoint
CREATE TRIGGER invoice_commission_tally_truncate AFTER TRUNCATE ON invoice
  FOR EACH STATEMENT EXECUTE FUNCTION commission_tally_truncate();
--> statement-breakpoint
SELECT commission_tally_recount();
--> statement-breakpoint
-- The totals no longer read proposals; the per-ambassador statistics use proposal_ambassador_idx.
DROP INDEX proposal_commission_idx;
