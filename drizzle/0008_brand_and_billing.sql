CREATE TABLE "brand_logo" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"content_type" text NOT NULL,
	"data_base64" text NOT NULL,
	"version" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_logo_single_row" CHECK ("brand_logo"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "company_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tax_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "payment_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "payment_link_template" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "accent_color" text DEFAULT '' NOT NULL;