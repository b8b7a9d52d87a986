CREATE TABLE "unapplied_payment" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"processor_payment_intent" text NOT NULL,
	"processor_event_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unapplied_payment_processorPaymentIntent_unique" UNIQUE("processor_payment_intent"),
	CONSTRAINT "unapplied_payment_amount_positive" CHECK ("unapplied_payment"."amount_cents" > 0),
	CONSTRAINT "unapplied_payment_refunded_range" CHECK ("unapplied_payment"."refunded_cents" >= 0 and "unapplied_payment"."refunded_cents" <= "unapplied_payment"."amount_cents"),
	CONSTRAINT "unapplied_payment_reason_check" CHECK ("unapplied_payment"."reason" in ('other-currency','nothing-due','above-balance'))
);
--> statement-breakpoint
ALTER TABLE "unapplied_payment" ADD CONSTRAINT "unapplied_payment_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unapplied_payment" ADD CONSTRAINT "unapplied_payment_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unapplied_payment_open_idx" ON "unapplied_payment" USING btree ("created_at") WHERE "unapplied_payment"."resolved_at" is null;