CREATE TABLE "cds_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"iss" text NOT NULL,
	"mode" text NOT NULL,
	"jkus" text[] DEFAULT '{}'::text[] NOT NULL,
	"jwks" jsonb,
	"allow_private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cds_feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"service_id" text NOT NULL,
	"card_uuid" text NOT NULL,
	"outcome" text NOT NULL,
	"outcome_timestamp" timestamp with time zone NOT NULL,
	"accepted_suggestions" text[],
	"override_reason_system" text,
	"override_reason_code" text,
	"override_reason_display" text,
	"override_comment" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cds_seen_jtis" (
	"client_id" text NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cds_seen_jtis_client_id_jti_pk" PRIMARY KEY("client_id","jti")
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "cds_client_limit" integer;--> statement-breakpoint
ALTER TABLE "cds_clients" ADD CONSTRAINT "cds_clients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cds_feedback" ADD CONSTRAINT "cds_feedback_client_id_cds_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."cds_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cds_feedback" ADD CONSTRAINT "cds_feedback_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cds_seen_jtis" ADD CONSTRAINT "cds_seen_jtis_client_id_cds_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."cds_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cds_clients_active_iss_idx" ON "cds_clients" USING btree ("iss") WHERE revoked_at is null;--> statement-breakpoint
CREATE INDEX "cds_clients_account_idx" ON "cds_clients" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cds_feedback_once_idx" ON "cds_feedback" USING btree ("client_id","card_uuid","outcome","outcome_timestamp");--> statement-breakpoint
CREATE INDEX "cds_feedback_account_idx" ON "cds_feedback" USING btree ("account_id","received_at");--> statement-breakpoint
CREATE INDEX "cds_seen_jtis_expires_idx" ON "cds_seen_jtis" USING btree ("expires_at");--> statement-breakpoint
-- Decision 123: active CDS clients (EHRs) per account, by plan; enterprise has no limit (null).
UPDATE "plans" SET "cds_client_limit" = CASE "id" WHEN 'sandbox' THEN 2 WHEN 'launch' THEN 5 WHEN 'scale' THEN 25 ELSE NULL END;
