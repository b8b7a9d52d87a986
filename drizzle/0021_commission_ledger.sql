-- Issue #25 (#25b): commissions on what is paid — a ledger of entries per payment and refund,
-- a hold period, and payouts (docs/product.md#commissions-ledger, ADR 017).
ALTER TABLE "settings" ADD COLUMN "commission_hold_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_commission_hold_range" CHECK ("settings"."commission_hold_days" between 0 and 365);--> statement-breakpoint
-- The rate is frozen when the client approves the proposal; proposals approved before get today's rate.
ALTER TABLE "proposal" ADD COLUMN "commission_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "proposal" ADD CONSTRAINT "proposal_commission_rate_range" CHECK ("proposal"."commission_rate_bps" is null or "proposal"."commission_rate_bps" between 0 and 10000);--> statement-breakpoint
UPDATE "proposal" SET "commission_rate_bps" = coalesce((SELECT "commission_rate_bps" FROM "settings" WHERE "id" = 1), 1500)
  WHERE "client_approved_at" IS NOT NULL AND "ambassador_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ambassador_id" text NOT NULL,
	"total_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"reference" text NOT NULL,
	"method" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_total_nonnegative" CHECK ("payouts"."total_cents" >= 0),
	CONSTRAINT "payouts_method_valid" CHECK ("payouts"."method" in ('bank_transfer', 'paypal', 'cash', 'other'))
);
--> statement-breakpoint
CREATE TABLE "commission_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"ambassador_id" text NOT NULL,
	"proposal_id" integer,
	"invoice_id" integer,
	"payment_id" integer,
	"kind" text NOT NULL,
	"base_cents" integer NOT NULL,
	"rate_bps" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payable_at" timestamp with time zone NOT NULL,
	"payout_id" integer,
	CONSTRAINT "commission_entries_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "commission_entries_kind_valid" CHECK ("commission_entries"."kind" in ('payment', 'refund', 'historical')),
	CONSTRAINT "commission_entries_sign" CHECK (("commission_entries"."kind" = 'refund' and "commission_entries"."amount_cents" <= 0) or ("commission_entries"."kind" <> 'refund' and "commission_entries"."amount_cents" >= 0))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_ambassador_id_user_id_fk" FOREIGN KEY ("ambassador_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_ambassador_id_user_id_fk" FOREIGN KEY ("ambassador_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_ambassador_idx" ON "payouts" USING btree ("ambassador_id","paid_at","id");--> statement-breakpoint
CREATE INDEX "payouts_paid_idx" ON "payouts" USING btree ("paid_at","id");--> statement-breakpoint
CREATE INDEX "commission_entries_ambassador_idx" ON "commission_entries" USING btree ("ambassador_id","created_at","id");--> statement-breakpoint
CREATE INDEX "commission_entries_unpaid_idx" ON "commission_entries" USING btree ("ambassador_id","payable_at") WHERE "commission_entries"."payout_id" is null;--> statement-breakpoint
CREATE INDEX "commission_entries_open_payable_idx" ON "commission_entries" USING btree ("payable_at") WHERE "commission_entries"."payout_id" is null;--> statement-breakpoint
CREATE INDEX "commission_entries_payout_idx" ON "commission_entries" USING btree ("payout_id");
--> statement-breakpoint
-- Each commission marked paid before the ledger becomes one historical entry (the amount paid,
-- on the invoice total or budget it was computed on) taken into one historical payout (the
-- time it was marked paid, method "other").
DO $$
DECLARE
  r record;
  new_payout integer;
  cur text := coalesce((SELECT "currency" FROM "settings" WHERE "id" = 1), 'USD');
BEGIN
  FOR r IN
    SELECT p.id, p.ambassador_id, p.commission_paid_at, p.commission_paid_cents, p.commission_rate_bps,
           i.id AS invoice_id, coalesce(i.total_cents, p.budget_cents, 0) AS base_cents
    FROM "proposal" AS p LEFT JOIN "invoice" AS i ON i.proposal_id = p.id
    WHERE p.commission_paid_at IS NOT NULL AND p.ambassador_id IS NOT NULL
    ORDER BY p.commission_paid_at, p.id
  LOOP
    INSERT INTO "payouts" ("ambassador_id", "total_cents", "currency", "reference", "method", "paid_at", "created_by", "created_at")
      VALUES (r.ambassador_id, greatest(coalesce(r.commission_paid_cents, 0), 0), cur, 'Marked paid before the ledger: proposal #' || r.id,
              'other', r.commission_paid_at, NULL, r.commission_paid_at)
      RETURNING id INTO new_payout;
    INSERT INTO "commission_entries" ("ambassador_id", "proposal_id", "invoice_id", "payment_id", "kind", "base_cents", "rate_bps",
                                      "amount_cents", "currency", "created_at", "payable_at", "payout_id")
      VALUES (r.ambassador_id, r.id, r.invoice_id, NULL, 'historical', r.base_cents, coalesce(r.commission_rate_bps, 0),
              greatest(coalesce(r.commission_paid_cents, 0), 0), cur, r.commission_paid_at, r.commission_paid_at, new_payout);
  END LOOP;
END $$;
--> statement-breakpoint
-- Payments already recorded (e.g. invoices paid before payments existed, migrated by 0014) on the
-- invoices of approved ambassador proposals whose commission was not marked paid earn their
-- entries now, payable after the hold counted from when the money was received.
INSERT INTO "commission_entries" ("ambassador_id", "proposal_id", "invoice_id", "payment_id", "kind", "base_cents", "rate_bps",
                                  "amount_cents", "currency", "created_at", "payable_at")
  SELECT p.ambassador_id, p.id, i.id, pay.id, CASE WHEN pay.amount_cents < 0 THEN 'refund' ELSE 'payment' END, pay.amount_cents,
         p.commission_rate_bps,
         CASE WHEN pay.amount_cents < 0 THEN -((-pay.amount_cents::bigint * p.commission_rate_bps + 5000) / 10000)
              ELSE (pay.amount_cents::bigint * p.commission_rate_bps + 5000) / 10000 END,
         pay.currency, pay.received_at,
         pay.received_at + make_interval(days => coalesce((SELECT "commission_hold_days" FROM "settings" WHERE "id" = 1), 30))
  FROM "payments" AS pay
    JOIN "invoice" AS i ON i.id = pay.invoice_id
    JOIN "proposal" AS p ON p.id = i.proposal_id
  WHERE p.ambassador_id IS NOT NULL AND p.client_approved_at IS NOT NULL AND p.commission_rate_bps IS NOT NULL
    AND p.commission_paid_at IS NULL
  ORDER BY pay.received_at, pay.id;
--> statement-breakpoint
-- The commission tally (migration 0004) follows the ledger: entity 'commission', bucket 'unpaid'
-- (not in a payout yet) or 'paid' (in a payout), cents = sum of the entries' amounts.
DROP TRIGGER "proposal_commission_tally_insert" ON "proposal";--> statement-breakpoint
DROP TRIGGER "proposal_commission_tally_change" ON "proposal";--> statement-breakpoint
DROP TRIGGER "proposal_commission_tally_truncate" ON "proposal";--> statement-breakpoint
DROP TRIGGER "invoice_commission_tally_insert" ON "invoice";--> statement-breakpoint
DROP TRIGGER "invoice_commission_tally_change" ON "invoice";--> statement-breakpoint
DROP TRIGGER "invoice_commission_tally_truncate" ON "invoice";--> statement-breakpoint
DROP FUNCTION commission_tally_truncate();--> statement-breakpoint
DROP FUNCTION commission_tally_recount();--> statement-breakpoint
DROP FUNCTION commission_tally_invoice();--> statement-breakpoint
DROP FUNCTION commission_tally_proposal();--> statement-breakpoint
DROP FUNCTION commission_tally_add(proposal, integer, integer);--> statement-breakpoint
DROP FUNCTION commission_bucket(text, timestamptz, timestamptz, integer, integer);--> statement-breakpoint
DELETE FROM "tally" WHERE "entity" = 'commission';--> statement-breakpoint
CREATE TRIGGER commission_entries_tally_insert AFTER INSERT ON "commission_entries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('commission', $$CASE WHEN payout_id IS NULL THEN 'unpaid' ELSE 'paid' END$$, 'amount_cents');
--> statement-breakpoint
CREATE TRIGGER commission_entries_tally_update AFTER UPDATE ON "commission_entries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('commission', $$CASE WHEN payout_id IS NULL THEN 'unpaid' ELSE 'paid' END$$, 'amount_cents');
--> statement-breakpoint
CREATE TRIGGER commission_entries_tally_delete AFTER DELETE ON "commission_entries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('commission', $$CASE WHEN payout_id IS NULL THEN 'unpaid' ELSE 'paid' END$$, 'amount_cents');
--> statement-breakpoint
CREATE TRIGGER commission_entries_tally_truncate AFTER TRUNCATE ON "commission_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('commission', '', '');
--> statement-breakpoint
INSERT INTO "tally" ("entity", "bucket", "n", "cents")
  SELECT 'commission', b.bucket, count(*), sum(b.amount_cents)
  FROM (SELECT CASE WHEN "payout_id" IS NULL THEN 'unpaid' ELSE 'paid' END AS bucket, "amount_cents" FROM "commission_entries") AS b
  GROUP BY b.bucket;
--> statement-breakpoint
-- The per-proposal "Mark as paid" is replaced by payouts: its columns go.
ALTER TABLE "proposal" DROP CONSTRAINT "proposal_commission_paid_amount";--> statement-breakpoint
ALTER TABLE "proposal" DROP COLUMN "commission_paid_at";--> statement-breakpoint
ALTER TABLE "proposal" DROP COLUMN "commission_paid_cents";
