-- Issue #26 (automatic reminders, docs/product.md#reminders, ADR 018).
-- reminder_settings: one row (id 1) of on/off switches and step lists; missing = the defaults.
CREATE TABLE "reminder_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"invoice_enabled" boolean DEFAULT true NOT NULL,
	"invoice_days" jsonb DEFAULT '[-3,0,7,14]'::jsonb NOT NULL,
	"proposal_enabled" boolean DEFAULT true NOT NULL,
	"proposal_days" jsonb DEFAULT '[3,7]'::jsonb NOT NULL,
	"meeting_enabled" boolean DEFAULT true NOT NULL,
	"digest_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_settings_single_row" CHECK ("reminder_settings"."id" = 1)
);
--> statement-breakpoint
-- reminders_sent: the ledger, at most one row per (record, kind, step).
CREATE TABLE "reminders_sent" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_kind" text NOT NULL,
	"record_id" integer NOT NULL,
	"kind" text NOT NULL,
	"step" text NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp with time zone,
	"sent_at" timestamp with time zone NOT NULL,
	"outbox_id" integer,
	"sent_by_id" text,
	CONSTRAINT "reminders_sent_record_kind" CHECK ("reminders_sent"."record_kind" in ('invoice', 'proposal', 'meeting', 'agency')),
	CONSTRAINT "reminders_sent_status" CHECK ("reminders_sent"."status" in ('sent', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "reminders_sent" ADD CONSTRAINT "reminders_sent_sent_by_id_user_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_sent_once" ON "reminders_sent" USING btree ("record_kind","record_id","kind","step");
--> statement-breakpoint
-- reminder_sweep: the sweep's watermark (one row, id 1).
CREATE TABLE "reminder_sweep" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"swept_until" timestamp with time zone NOT NULL,
	CONSTRAINT "reminder_sweep_single_row" CHECK ("reminder_sweep"."id" = 1)
);
--> statement-breakpoint
-- The client's own preference and the admin's pause switch.
ALTER TABLE "user" ADD COLUMN "notify_reminders" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "reminders_paused" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The sweep's invoice query: unpaid invoices by due date (invoice_unpaid_due_idx of 0003 covers it);
-- the proposal query: proposals waiting for the client (status 'submitted'), a small partial index.
CREATE INDEX "proposal_awaiting_client_idx" ON "proposal" USING btree ("created_at") WHERE "proposal"."status" in ('awaiting_acceptance', 'submitted') and "proposal"."client_approved_at" is null and "proposal"."client_declined_at" is null;
