ALTER TABLE "settings" ADD COLUMN "terms_and_conditions" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE TABLE "proposal_offer" (
	"proposal_id" integer PRIMARY KEY NOT NULL,
	"project_name" text DEFAULT '' NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"items" jsonb NOT NULL,
	"timeline" text DEFAULT '' NOT NULL,
	"deposit_kind" text,
	"deposit_value" integer,
	"valid_until" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposal_offer_deposit_kind" CHECK ("proposal_offer"."deposit_kind" is null or "proposal_offer"."deposit_kind" in ('amount','percent')),
	CONSTRAINT "proposal_offer_deposit_pair" CHECK (("proposal_offer"."deposit_kind" is null) = ("proposal_offer"."deposit_value" is null))
);
--> statement-breakpoint
CREATE TABLE "proposal_version" (
	"id" serial PRIMARY KEY NOT NULL,
	"proposal_id" integer NOT NULL,
	"number" integer NOT NULL,
	"terms" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"created_by" text,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposal_version_number_positive" CHECK ("proposal_version"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "proposal_acceptance" (
	"id" serial PRIMARY KEY NOT NULL,
	"proposal_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"version_number" integer NOT NULL,
	"user_id" text,
	"typed_name" text NOT NULL,
	"email" text NOT NULL,
	"sha256" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"certificate_id" text NOT NULL,
	"voided_at" timestamp with time zone,
	"voided_by_version" integer
);
--> statement-breakpoint
ALTER TABLE "proposal_offer" ADD CONSTRAINT "proposal_offer_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_offer" ADD CONSTRAINT "proposal_offer_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_version" ADD CONSTRAINT "proposal_version_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_version" ADD CONSTRAINT "proposal_version_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_acceptance" ADD CONSTRAINT "proposal_acceptance_proposal_id_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_acceptance" ADD CONSTRAINT "proposal_acceptance_version_id_proposal_version_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."proposal_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_acceptance" ADD CONSTRAINT "proposal_acceptance_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_version_number_unique" ON "proposal_version" USING btree ("proposal_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_acceptance_certificate_unique" ON "proposal_acceptance" USING btree ("certificate_id");--> statement-breakpoint
CREATE INDEX "proposal_acceptance_proposal_idx" ON "proposal_acceptance" USING btree ("proposal_id","accepted_at");
