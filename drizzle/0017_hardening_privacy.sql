-- Passkeys added before user verification was required must be added again (issue #28): existing rows false, new rows true.
ALTER TABLE "passkey" ADD COLUMN "user_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "passkey" ALTER COLUMN "user_verified" SET DEFAULT true;
