ALTER TABLE "contact_message" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_message" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "contact_message_unread_idx" ON "contact_message" USING btree ("id") WHERE "contact_message"."read_at" is null;