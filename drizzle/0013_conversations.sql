CREATE TABLE "file_gc" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_object" (
	"key" text PRIMARY KEY NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_object_chunk" (
	"key" text NOT NULL,
	"seq" integer NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "file_object_chunk_key_seq_pk" PRIMARY KEY("key","seq")
);
--> statement-breakpoint
CREATE TABLE "message_mail" (
	"proposal_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"last_sent_at" timestamp with time zone,
	"pending_from_message_id" integer,
	"due_at" timestamp with time zone,
	CONSTRAINT "message_mail_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "proposal_message" (
	"id" serial PRIMARY KEY NOT NULL,
	"proposal_id" integer NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"visibility" text DEFAULT 'shared' NOT NULL,
	"via" text DEFAULT 'web' NOT NULL,
	"mail_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "proposal_message_author_role" CHECK ("proposal_message"."author_role" in ('client', 'agency')),
	CONSTRAINT "proposal_message_visibility" CHECK ("proposal_message"."visibility" in ('shared', 'internal')),
	CONSTRAINT "proposal_message_via" CHECK ("proposal_message"."via" in ('web', 'email')),
	CONSTRAINT "proposal_message_note_by_agency" CHECK ("proposal_message"."visibility" = 'shared' or "proposal_message"."author_role" = 'agency')
);
--> statement-breakpoint
CREATE TABLE "proposal_read" (
	"user_id" text NOT NULL,
	"proposal_id" integer NOT NULL,
	"last_read_message_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposal_read_user_id_proposal_id_pk" PRIMARY KEY("user_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "proposal_thread" (
	"proposal_id" integer PRIMARY KEY NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"last_message_id" integer NOT NULL,
	"last_client_message_id" integer DEFAULT 0 NOT NULL,
	"last_agency_message_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file" (
	"id" serial PRIMARY KEY NOT NULL,
	"proposal_id" integer NOT NULL,
	"message_id" integer,
	"uploaded_by_id" text,
	"uploaded_by_name" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text DEFAULT '' NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_storageKey_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "audit_event" ADD COLUMN "proposal_id" integer;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "notify_messages" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "file_object_chunk" ADD CONSTRAINT "file_object_chunk_key_file_object_key_fk" FOREIGN KEY ("key") REFERENCES "public"."file_object"("key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_mail" ADD CONSTRAINT "message_mail_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_mail" ADD CONSTRAINT "message_mail_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_message" ADD CONSTRAINT "proposal_message_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_message" ADD CONSTRAINT "proposal_message_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_read" ADD CONSTRAINT "proposal_read_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_read" ADD CONSTRAINT "proposal_read_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_thread" ADD CONSTRAINT "proposal_thread_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_message_id_proposal_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."proposal_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_uploaded_by_id_user_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_mail_user_idx" ON "message_mail" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_mail_due_idx" ON "message_mail" USING btree ("due_at") WHERE "message_mail"."due_at" is not null;--> statement-breakpoint
CREATE INDEX "proposal_message_thread_idx" ON "proposal_message" USING btree ("proposal_id","id");--> statement-breakpoint
CREATE INDEX "proposal_message_unread_by_agency_idx" ON "proposal_message" USING btree ("proposal_id","id") WHERE "proposal_message"."author_role" = 'client' and "proposal_message"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "proposal_message_unread_by_client_idx" ON "proposal_message" USING btree ("proposal_id","id") WHERE "proposal_message"."author_role" = 'agency' and "proposal_message"."visibility" = 'shared' and "proposal_message"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_message_mail_message_id_unique" ON "proposal_message" USING btree ("mail_message_id");--> statement-breakpoint
CREATE INDEX "proposal_read_proposal_idx" ON "proposal_read" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "proposal_thread_activity_idx" ON "proposal_thread" USING btree ("last_activity_at","proposal_id");--> statement-breakpoint
CREATE INDEX "file_proposal_idx" ON "file" USING btree ("proposal_id","id");--> statement-breakpoint
CREATE INDEX "file_message_idx" ON "file" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "file_uploaded_by_idx" ON "file" USING btree ("uploaded_by_id");--> statement-breakpoint
CREATE INDEX "file_pending_idx" ON "file" USING btree ("created_at") WHERE "file"."message_id" is null;--> statement-breakpoint
CREATE INDEX "audit_event_proposal_idx" ON "audit_event" USING btree ("proposal_id","id") WHERE "audit_event"."proposal_id" is not null;--> statement-breakpoint
-- Bytes outlive no row (ADR 011): deleting a file row, directly or by a cascade from its message,
-- proposal or client, queues its storage key; the sweeper deletes the bytes from the FileStore.
CREATE FUNCTION "file_queue_gc"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "file_gc" ("storage_key") VALUES (OLD."storage_key") ON CONFLICT DO NOTHING;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "file_queue_gc" AFTER DELETE ON "file" FOR EACH ROW EXECUTE FUNCTION "file_queue_gc"();
