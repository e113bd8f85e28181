CREATE TABLE "cds_issued_cards" (
	"client_id" text NOT NULL,
	"card_uuid" text NOT NULL,
	"service_id" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cds_issued_cards_client_id_card_uuid_pk" PRIMARY KEY("client_id","card_uuid")
);
--> statement-breakpoint
DROP INDEX "cds_feedback_once_idx";--> statement-breakpoint
ALTER TABLE "cds_issued_cards" ADD CONSTRAINT "cds_issued_cards_client_id_cds_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."cds_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cds_issued_cards_expires_idx" ON "cds_issued_cards" USING btree ("expires_at");--> statement-breakpoint
-- One report per client, card and outcome from now on (decision 151): earlier repeats that
-- differed only in the client's outcome time are folded into the first one received.
DELETE FROM "cds_feedback" AS "later" USING "cds_feedback" AS "first" WHERE "later"."client_id" = "first"."client_id" AND "later"."card_uuid" = "first"."card_uuid" AND "later"."outcome" = "first"."outcome" AND "later"."id" > "first"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "cds_feedback_report_idx" ON "cds_feedback" USING btree ("client_id","card_uuid","outcome");--> statement-breakpoint
CREATE INDEX "cds_feedback_received_idx" ON "cds_feedback" USING btree ("received_at");