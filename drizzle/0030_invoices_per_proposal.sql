ALTER TABLE "invoice" DROP CONSTRAINT "invoice_proposalId_unique";--> statement-breakpoint
ALTER TABLE "invoice" ALTER COLUMN "proposal_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_owner_known" CHECK ("invoice"."proposal_id" is not null or "invoice"."organisation_id" is not null);