CREATE TABLE "payment_schedule_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"proposal_id" integer NOT NULL,
	"position" integer NOT NULL,
	"version_number" integer NOT NULL,
	"label" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"due_kind" text NOT NULL,
	"due_on" date,
	"reached_at" timestamp with time zone,
	"reached_by" text,
	"issued_at" timestamp with time zone,
	"invoice_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_schedule_line_amount_positive" CHECK ("payment_schedule_line"."amount_cents" > 0),
	CONSTRAINT "payment_schedule_line_due_kind" CHECK ("payment_schedule_line"."due_kind" in ('signing','date','days_after_signing','milestone'))
);
--> statement-breakpoint
ALTER TABLE "proposal_offer" ADD COLUMN "schedule" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_schedule_line" ADD CONSTRAINT "payment_schedule_line_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_schedule_line" ADD CONSTRAINT "payment_schedule_line_reached_by_user_id_fk" FOREIGN KEY ("reached_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_schedule_line" ADD CONSTRAINT "payment_schedule_line_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_schedule_line_position_unique" ON "payment_schedule_line" USING btree ("proposal_id","position");--> statement-breakpoint
CREATE INDEX "payment_schedule_line_due_idx" ON "payment_schedule_line" USING btree ("due_on") WHERE "payment_schedule_line"."issued_at" is null;--> statement-breakpoint
SELECT pgboss.create_queue('schedule', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);