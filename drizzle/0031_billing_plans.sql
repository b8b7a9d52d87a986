CREATE TABLE "billing_cycle" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"cycle_index" integer NOT NULL,
	"cycle_on" date NOT NULL,
	"invoice_id" integer,
	"autopay" boolean DEFAULT false NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_plan" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"items" jsonb NOT NULL,
	"total_cents" integer NOT NULL,
	"frequency" text NOT NULL,
	"start_date" date NOT NULL,
	"day_of_month" integer,
	"end_date" date,
	"max_cycles" integer,
	"due_days" integer NOT NULL,
	"autopay" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"next_cycle_index" integer DEFAULT 0 NOT NULL,
	"next_cycle_on" date,
	"ambassador_id" text,
	"commission_rate_bps" integer,
	"commission_until" date,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "billing_plan_frequency_valid" CHECK ("billing_plan"."frequency" in ('weekly', 'monthly', 'quarterly', 'yearly')),
	CONSTRAINT "billing_plan_status_valid" CHECK ("billing_plan"."status" in ('active', 'paused', 'cancelled')),
	CONSTRAINT "billing_plan_day_range" CHECK ("billing_plan"."day_of_month" is null or "billing_plan"."day_of_month" between 1 and 31),
	CONSTRAINT "billing_plan_due_days_range" CHECK ("billing_plan"."due_days" between 0 and 365),
	CONSTRAINT "billing_plan_max_cycles_range" CHECK ("billing_plan"."max_cycles" is null or "billing_plan"."max_cycles" >= 1),
	CONSTRAINT "billing_plan_total_positive" CHECK ("billing_plan"."total_cents" > 0),
	CONSTRAINT "billing_plan_end_after_start" CHECK ("billing_plan"."end_date" is null or "billing_plan"."end_date" >= "billing_plan"."start_date")
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "dunning_retry_days" jsonb DEFAULT '[1,3,7]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "recurring_commission_months" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_cycle" ADD CONSTRAINT "billing_cycle_plan_id_billing_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."billing_plan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_cycle" ADD CONSTRAINT "billing_cycle_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_plan" ADD CONSTRAINT "billing_plan_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_plan" ADD CONSTRAINT "billing_plan_ambassador_id_user_id_fk" FOREIGN KEY ("ambassador_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_plan" ADD CONSTRAINT "billing_plan_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_cycle_plan_date_unique" ON "billing_cycle" USING btree ("plan_id","cycle_on");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_cycle_plan_index_unique" ON "billing_cycle" USING btree ("plan_id","cycle_index");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_cycle_invoice_unique" ON "billing_cycle" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "billing_plan_organisation_idx" ON "billing_plan" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "billing_plan_created_idx" ON "billing_plan" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "billing_plan_due_idx" ON "billing_plan" USING btree ("next_cycle_on") WHERE "billing_plan"."status" = 'active';--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_recurring_commission_months_range" CHECK ("settings"."recurring_commission_months" between 0 and 120);--> statement-breakpoint
-- #39 job queues (ADR 019, app/features/jobs/queues.ts): `billing` — the cron sweep that issues due
-- cycles, dunning retries and card-expiry notices; `autopay` — one job per charge of a saved card.
SELECT pgboss.create_queue('billing', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('autopay', '{"policy":"standard","retryLimit":4,"retryDelay":60,"retryBackoff":true,"expireInSeconds":120}'::json);
