CREATE TABLE "form_submission" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_submission_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE INDEX "form_submission_created_idx" ON "form_submission" USING btree ("created_at");