-- STUB owned by #25a (branch i25a): the payments table of the plan, so the commission ledger
-- (0021) can be built and tested before i25a is merged. Replaced by i25a's migration at merge.
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
	CONSTRAINT "payments_processor_payment_intent_unique" UNIQUE("processor_payment_intent"),
	CONSTRAINT "payments_method_valid" CHECK ("payments"."method" in ('card', 'bank_transfer', 'cash', 'other')),
	CONSTRAINT "payments_amount_nonzero" CHECK ("payments"."amount_cents" <> 0)
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_of_payments_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");
