-- Issue #30: a client's invoices are found by invoice.client_id alone (the owner index
-- invoice_client_idx), never by coalesce(invoice.client_id, proposal.client_id), which made
-- PostgreSQL scan every proposal and invoice of the agency for one client's page.
-- An invoice is generated only for a proposal with a client account (its client_id is set then);
-- older rows without one take their proposal's client here, once.
UPDATE "invoice" SET "client_id" = "proposal"."client_id"
FROM "proposal"
WHERE "invoice"."proposal_id" = "proposal"."id" AND "invoice"."client_id" IS NULL AND "proposal"."client_id" IS NOT NULL;
--> statement-breakpoint
-- A client's and an ambassador's proposals are listed newest first on (created_at, id): with the id
-- in the owner index PostgreSQL reads exactly their rows in order instead of walking the agency's
-- newest-first index and filtering (found by app/db/owner-index.server.test.ts).
DROP INDEX IF EXISTS "proposal_client_idx";
--> statement-breakpoint
CREATE INDEX "proposal_client_idx" ON "proposal" USING btree ("client_id","created_at","id");
--> statement-breakpoint
DROP INDEX IF EXISTS "proposal_ambassador_idx";
--> statement-breakpoint
CREATE INDEX "proposal_ambassador_idx" ON "proposal" USING btree ("ambassador_id","created_at","id");
