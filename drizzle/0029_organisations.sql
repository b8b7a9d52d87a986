CREATE TABLE "conversation_member" (
	"proposal_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"muted_at" timestamp with time zone,
	"added_at" timestamp with time zone,
	"added_by_id" text,
	CONSTRAINT "conversation_member_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "invitation" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by_id" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitation_role_valid" CHECK ("invitation"."role" in ('owner', 'billing', 'member'))
);
--> statement-breakpoint
CREATE TABLE "membership" (
	"organisation_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"invited_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_organisation_id_user_id_pk" PRIMARY KEY("organisation_id","user_id"),
	CONSTRAINT "membership_role_valid" CHECK ("membership"."role" in ('owner', 'billing', 'member'))
);
--> statement-breakpoint
CREATE TABLE "organisation" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"tax_id" text,
	"website" text,
	"referred_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
ALTER TABLE "meeting" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
ALTER TABLE "proposal" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
ALTER TABLE "proposal_acceptance" ADD COLUMN "organisation_name" text;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "active_organisation_id" integer;--> statement-breakpoint
ALTER TABLE "conversation_member" ADD CONSTRAINT "conversation_member_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_member" ADD CONSTRAINT "conversation_member_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_member" ADD CONSTRAINT "conversation_member_added_by_id_user_id_fk" FOREIGN KEY ("added_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_invited_by_id_user_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_accepted_by_id_user_id_fk" FOREIGN KEY ("accepted_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership" ADD CONSTRAINT "membership_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership" ADD CONSTRAINT "membership_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership" ADD CONSTRAINT "membership_invited_by_id_user_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation" ADD CONSTRAINT "organisation_referred_by_id_user_id_fk" FOREIGN KEY ("referred_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_member_user_idx" ON "conversation_member" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_token_hash_unique" ON "invitation" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitation_organisation_idx" ON "invitation" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_open_unique" ON "invitation" USING btree ("organisation_id","email") WHERE "invitation"."accepted_at" is null and "invitation"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "membership_user_idx" ON "membership" USING btree ("user_id","created_at","organisation_id");--> statement-breakpoint
CREATE INDEX "organisation_created_idx" ON "organisation" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "organisation_referred_by_idx" ON "organisation" USING btree ("referred_by_id");--> statement-breakpoint
CREATE INDEX "organisation_name_trgm_idx" ON "organisation" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting" ADD CONSTRAINT "meeting_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal" ADD CONSTRAINT "proposal_organisation_id_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_active_organisation_id_organisation_id_fk" FOREIGN KEY ("active_organisation_id") REFERENCES "public"."organisation"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_organisation_idx" ON "invoice" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "meeting_organisation_idx" ON "meeting" USING btree ("organisation_id","starts_at");--> statement-breakpoint
CREATE INDEX "proposal_organisation_idx" ON "proposal" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
-- Issue #38 (ADR 022): every existing client becomes a one-person organisation, with themselves as
-- owner, keeping every id: proposals, invoices and meetings keep their ids and their client_id (the
-- person), and gain the organisation they now belong to. Signed invoice links are signed for
-- invoice.client_id, which does not change, so every /i/<token> link still verifies; certificates
-- are keyed by their own ids. A closed account's organisation is kept, without members (its records
-- stay, as the law keeps them); its name is the erased account's placeholder.
CREATE TEMPORARY TABLE "organisation_backfill" AS
SELECT "id" AS "user_id", nextval(pg_get_serial_sequence('organisation', 'id'))::integer AS "organisation_id",
  coalesce(nullif(trim("business_name"), ''), nullif(trim("name"), ''), "email") AS "name",
  "website", "referred_by_id", "created_at", "closed_at"
FROM (SELECT * FROM "user" WHERE "role" IS NULL OR "role" NOT IN ('admin', 'ambassador') ORDER BY "created_at", "id") AS clients;
--> statement-breakpoint
INSERT INTO "organisation" ("id", "name", "website", "referred_by_id", "created_at", "updated_at")
SELECT "organisation_id", "name", "website", "referred_by_id", "created_at", "created_at" FROM "organisation_backfill";
--> statement-breakpoint
INSERT INTO "membership" ("organisation_id", "user_id", "role", "created_at")
SELECT "organisation_id", "user_id", 'owner', "created_at" FROM "organisation_backfill" WHERE "closed_at" IS NULL;
--> statement-breakpoint
UPDATE "proposal" SET "organisation_id" = b."organisation_id" FROM "organisation_backfill" b WHERE "proposal"."client_id" = b."user_id";
--> statement-breakpoint
-- An invoice belongs to its proposal's organisation (its client_id is that proposal's client).
UPDATE "invoice" SET "organisation_id" = p."organisation_id" FROM "proposal" p WHERE p."id" = "invoice"."proposal_id";
--> statement-breakpoint
UPDATE "invoice" SET "organisation_id" = b."organisation_id" FROM "organisation_backfill" b
WHERE "invoice"."organisation_id" IS NULL AND "invoice"."client_id" = b."user_id";
--> statement-breakpoint
UPDATE "meeting" SET "organisation_id" = b."organisation_id" FROM "organisation_backfill" b WHERE "meeting"."user_id" = b."user_id";
--> statement-breakpoint
DROP TABLE "organisation_backfill";
--> statement-breakpoint
-- A writer that leaves organisation_id null (a claim of an addressed proposal, older code paths) gets
-- the organisation the record follows from: a proposal its client's first organisation, an invoice its
-- proposal's, a meeting its booker's first organisation ("first" = the oldest membership, as the
-- session's default). Writers that know the organisation set it, and the trigger leaves it alone.
CREATE OR REPLACE FUNCTION "first_organisation_of"(person text) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT "organisation_id" FROM "membership" WHERE "user_id" = person ORDER BY "created_at", "organisation_id" LIMIT 1
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "proposal_default_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."organisation_id" IS NULL AND NEW."client_id" IS NOT NULL THEN
    NEW."organisation_id" := "first_organisation_of"(NEW."client_id");
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "proposal_default_organisation" BEFORE INSERT OR UPDATE OF "client_id" ON "proposal"
FOR EACH ROW EXECUTE FUNCTION "proposal_default_organisation"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "invoice_default_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."organisation_id" IS NULL THEN
    SELECT "organisation_id" INTO NEW."organisation_id" FROM "proposal" WHERE "id" = NEW."proposal_id";
  END IF;
  IF NEW."organisation_id" IS NULL AND NEW."client_id" IS NOT NULL THEN
    NEW."organisation_id" := "first_organisation_of"(NEW."client_id");
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoice_default_organisation" BEFORE INSERT ON "invoice"
FOR EACH ROW EXECUTE FUNCTION "invoice_default_organisation"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "meeting_default_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."organisation_id" IS NULL THEN
    NEW."organisation_id" := "first_organisation_of"(NEW."user_id");
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "meeting_default_organisation" BEFORE INSERT ON "meeting"
FOR EACH ROW EXECUTE FUNCTION "meeting_default_organisation"();
