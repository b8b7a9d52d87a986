-- Issue #24: live updates (docs/product.md#live-updates) and e-mail replies (docs/product.md#email-replies).
-- live_event: one row per event a signed-in browser may be told about, kept 24 hours. Its id is the
-- stream's event id (Last-Event-ID); user_ids and admins name exactly who may receive it. One event
-- per (transaction, kind, entity): a write that is both audited and published directly is told once.
CREATE TABLE "live_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tx_id" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	"kind" text NOT NULL,
	"entity_id" text NOT NULL,
	"proposal_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"admins" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "live_event_once_per_tx" ON "live_event" USING btree ("tx_id","kind","entity_id");
--> statement-breakpoint
CREATE INDEX "live_event_created_idx" ON "live_event" USING btree ("created_at");
--> statement-breakpoint
-- Every process LISTENs on portal_events; the payload is the event's id, sent when the writing
-- transaction commits (never for one that rolls back).
CREATE FUNCTION live_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_events', NEW.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER live_event_notify AFTER INSERT ON live_event FOR EACH ROW EXECUTE FUNCTION live_event_notify();
--> statement-breakpoint
-- Inbound e-mail replies by Message-ID: a delivery claims its Message-ID before posting (a claim
-- left unposted for 10 minutes may be taken again); the same message delivered twice is posted once.
CREATE TABLE "inbound_mail" (
	"message_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"proposal_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_message_id" integer
);
--> statement-breakpoint
CREATE INDEX "inbound_mail_received_idx" ON "inbound_mail" USING btree ("received_at");
--> statement-breakpoint
-- Extra header fields of an outgoing mail (Auto-Submitted on the automatic answer to a refused reply).
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;
