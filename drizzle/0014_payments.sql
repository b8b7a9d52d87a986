-- Issue #25 (payments on invoices, ADR 013): payments and refunds per invoice; paid, balance and status derive from them.
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"reference" text,
	"recorded_by" text,
	"refund_of" integer,
	"processor_payment_intent" text,
	"processor_event_id" text,
	"created_at" timestamp with time zone DEFAULT now(),
	CONSTRAINT "payments_processorPaymentIntent_unique" UNIQUE("processor_payment_intent"),
	CONSTRAINT "payments_amount_nonzero" CHECK ("payments"."amount_cents" <> 0),
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card','bank_transfer','cash','other'))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_of_payments_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "deposit_cents" integer;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "default_deposit_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_deposit_percent_range" CHECK ("settings"."default_deposit_percent" between 0 and 100);--> statement-breakpoint
-- Existing paid invoices (Mark Paid, the whole total) become one payment each, method 'other', received when marked paid.
INSERT INTO "payments" ("invoice_id", "amount_cents", "currency", "method", "received_at", "reference")
  SELECT i."id", i."total_cents", coalesce((SELECT s."currency" FROM "settings" s WHERE s."id" = 1), 'USD'), 'other',
         coalesce(i."paid_at", i."updated_at"), 'Marked paid before payments were recorded'
  FROM "invoice" i
  WHERE i."status" = 'paid' AND i."total_cents" > 0
  ORDER BY i."id";
