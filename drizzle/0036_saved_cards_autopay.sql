CREATE TABLE "invoice_autopay" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"plan_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"first_failed_at" timestamp with time zone,
	"next_retry_at" timestamp with time zone,
	"last_payment_intent_id" text,
	"last_failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_autopay_state_valid" CHECK ("invoice_autopay"."state" in ('queued', 'charging', 'succeeded', 'retry_scheduled', 'stopped', 'no_card', 'settled'))
);
--> statement-breakpoint
CREATE TABLE "saved_card" (
	"organisation_id" integer PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"setup_intent_id" text NOT NULL,
	"setup_created" timestamp with time zone NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"saved_by_id" text,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expiry_notice_sent_at" timestamp with time zone,
	CONSTRAINT "saved_card_last4" CHECK ("saved_card"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "saved_card_exp_month" CHECK ("saved_card"."exp_month" between 1 and 12),
	CONSTRAINT "saved_card_exp_year" CHECK ("saved_card"."exp_year" between 2000 and 2200)
);
--> statement-breakpoint
CREATE TABLE "stripe_customer" (
	"organisation_id" integer PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_customer_customer_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
ALTER TABLE "invoice_autopay" ADD CONSTRAINT "invoice_autopay_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_autopay" ADD CONSTRAINT "invoice_autopay_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_autopay" ADD CONSTRAINT "invoice_autopay_plan_id_billing_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."billing_plan"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_card" ADD CONSTRAINT "saved_card_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_card" ADD CONSTRAINT "saved_card_saved_by_id_user_id_fk" FOREIGN KEY ("saved_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_customer" ADD CONSTRAINT "stripe_customer_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_autopay_retry_idx" ON "invoice_autopay" USING btree ("next_retry_at") WHERE "invoice_autopay"."state" = 'retry_scheduled';