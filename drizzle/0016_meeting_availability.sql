-- Issue #27: meetings booked from the agency's availability (docs/product.md#availability).
-- The agency's weekly hours, meeting length, buffer, notice, horizon, dates off and the clients'
-- change cutoff live on the one settings row (its time zone is settings.time_zone, 0012).
ALTER TABLE "settings" ADD COLUMN "weekly_hours" jsonb DEFAULT '{"mon":[{"start":"09:00","end":"17:00"}],"tue":[{"start":"09:00","end":"17:00"}],"wed":[{"start":"09:00","end":"17:00"}],"thu":[{"start":"09:00","end":"17:00"}],"fri":[{"start":"09:00","end":"17:00"}],"sat":[],"sun":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "meeting_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "meeting_buffer_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "min_notice_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "booking_horizon_days" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "dates_off" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "change_cutoff_hours" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "require_client_phone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_meeting_minutes_range" CHECK ("settings"."meeting_minutes" between 15 and 240);--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_meeting_buffer_range" CHECK ("settings"."meeting_buffer_minutes" between 0 and 240);--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_min_notice_range" CHECK ("settings"."min_notice_hours" between 0 and 8760);--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_booking_horizon_range" CHECK ("settings"."booking_horizon_days" between 1 and 730);--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_change_cutoff_range" CHECK ("settings"."change_cutoff_hours" between 0 and 720);--> statement-breakpoint
-- A meeting lasts from starts_at to ends_at; before this migration every invite said one hour.
ALTER TABLE "meeting" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
UPDATE "meeting" SET "ends_at" = "starts_at" + interval '60 minutes';--> statement-breakpoint
ALTER TABLE "meeting" ALTER COLUMN "ends_at" SET NOT NULL;--> statement-breakpoint
-- An insert that names no end (written before this migration) gets the old one-hour length.
CREATE FUNCTION meeting_default_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ends_at IS NULL THEN
    NEW.ends_at := NEW.starts_at + interval '60 minutes';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER meeting_default_end BEFORE INSERT ON "meeting" FOR EACH ROW EXECUTE FUNCTION meeting_default_end();--> statement-breakpoint
-- The end of the time the meeting holds in the agency's calendar (ends_at + the buffer). Null for
-- meetings requested before availability existed: those are not checked by meeting_no_overlap.
ALTER TABLE "meeting" ADD COLUMN "blocked_until" timestamp with time zone;--> statement-breakpoint
-- The iCalendar SEQUENCE of the meeting's invite: raised by every change (reschedule, cancel).
ALTER TABLE "meeting" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The project the meeting is about (optional; contract 5 of the team plan).
ALTER TABLE "meeting" ADD COLUMN "proposal_id" integer;--> statement-breakpoint
ALTER TABLE "meeting" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "meeting" ADD CONSTRAINT "meeting_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting" ADD CONSTRAINT "meeting_blocked_after_end" CHECK ("meeting"."blocked_until" is null or "meeting"."blocked_until" >= "meeting"."ends_at");--> statement-breakpoint
CREATE INDEX "meeting_proposal_idx" ON "meeting" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "meeting_active_starts_idx" ON "meeting" USING btree ("starts_at") WHERE "meeting"."status" in ('pending', 'accepted');--> statement-breakpoint
-- One meeting per slot: two pending or accepted meetings never hold overlapping time (buffer
-- included). Two clients booking the same slot at once: one insert wins, the other fails with
-- exclusion_violation (23P01), which the booking answers with a clear message.
ALTER TABLE "meeting" ADD CONSTRAINT "meeting_no_overlap" EXCLUDE USING gist (tstzrange("starts_at", "blocked_until", '[)') WITH &&) WHERE ("status" in ('pending', 'accepted') and "blocked_until" is not null);
