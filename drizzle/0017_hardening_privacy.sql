-- Passkeys added before user verification was required must be added again (issue #28): existing rows false, new rows true.
ALTER TABLE "passkey" ADD COLUMN "user_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "passkey" ALTER COLUMN "user_verified" SET DEFAULT true;
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "data_export" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"archive" bytea,
	"size_bytes" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "data_export" ADD CONSTRAINT "data_export_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_export_user_idx" ON "data_export" USING btree ("user_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_export_token_unique" ON "data_export" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "data_export_pending_idx" ON "data_export" USING btree ("requested_at") WHERE "data_export"."status" = 'pending';
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "coalesce_key" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "coalesced_lines" jsonb;--> statement-breakpoint
CREATE INDEX "mail_outbox_coalesce_idx" ON "mail_outbox" USING btree ("coalesce_key","next_attempt_at") WHERE "mail_outbox"."coalesce_key" is not null;
