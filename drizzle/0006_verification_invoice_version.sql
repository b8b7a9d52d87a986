ALTER TABLE "invoice" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "require_email_verification" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Accounts made by the operator (admins) are trusted as verified (docs/product.md#email-verification).
UPDATE "user" SET "email_verified" = true WHERE "role" = 'admin';
