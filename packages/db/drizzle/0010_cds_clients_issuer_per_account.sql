DROP INDEX "cds_clients_active_iss_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "cds_clients_account_active_iss_idx" ON "cds_clients" USING btree ("account_id","iss") WHERE revoked_at is null;