CREATE TABLE "events" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"type" text NOT NULL,
	"api_version" text NOT NULL,
	"data" jsonb NOT NULL,
	"xact_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "lab_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"patient_ref" text NOT NULL,
	"panel_id" text NOT NULL,
	"panel_name" text NOT NULL,
	"category" text NOT NULL,
	"price_cents" integer NOT NULL,
	"status" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"requisition_number" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"results" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_versions" (
	"engine" text NOT NULL,
	"version" integer NOT NULL,
	"params" jsonb NOT NULL,
	"note" text,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"promoted_at" timestamp with time zone,
	"promoted_by" text,
	CONSTRAINT "model_versions_engine_version_pk" PRIMARY KEY("engine","version")
);
--> statement-breakpoint
CREATE TABLE "mse_safety_events" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"visit_id" text NOT NULL,
	"patient_id" text NOT NULL,
	"version" integer NOT NULL,
	"risk" jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mse_signatures" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"visit_id" text NOT NULL,
	"version" integer NOT NULL,
	"patient_id" text NOT NULL,
	"content_hash" text NOT NULL,
	"signed_by_name" text NOT NULL,
	"credential" text,
	"license" text,
	"organization" text,
	"timezone" text,
	"attestation" text,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at_local" text,
	"key_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mse_versions" (
	"org_id" text NOT NULL,
	"visit_id" text NOT NULL,
	"version" integer NOT NULL,
	"patient_id" text NOT NULL,
	"selection" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"objective_block" text NOT NULL,
	"risk_flag" boolean NOT NULL,
	"risk_level" text NOT NULL,
	"risk_labels" text[] NOT NULL,
	"operation" text NOT NULL,
	"patched_domains" text[],
	"clinician_id" text,
	"key_id" text NOT NULL,
	"safety_event_id" text,
	"content_hash" text NOT NULL,
	"prev_hash" text,
	"chain_hash" text NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mse_versions_org_id_visit_id_version_pk" PRIMARY KEY("org_id","visit_id","version")
);
--> statement-breakpoint
CREATE TABLE "mse_visits" (
	"org_id" text NOT NULL,
	"visit_id" text NOT NULL,
	"patient_id" text NOT NULL,
	"current_version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mse_visits_org_id_visit_id_pk" PRIMARY KEY("org_id","visit_id")
);
--> statement-breakpoint
CREATE TABLE "wearable_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"patient_ref" text NOT NULL,
	"status" text NOT NULL,
	"providers" text[] NOT NULL,
	"provider" text,
	"language" text DEFAULT 'en' NOT NULL,
	"connect_token" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"connected_at" timestamp with time zone,
	"disconnected_at" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wearable_daily_metrics" (
	"connection_id" text NOT NULL,
	"day" date NOT NULL,
	"sleep_hours" double precision,
	"steps" integer,
	"resting_heart_rate" double precision,
	"hrv_ms" double precision,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wearable_daily_metrics_connection_id_day_pk" PRIMARY KEY("connection_id","day")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_snippet" text,
	"next_attempt_at" timestamp with time zone,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"enqueued_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text,
	"org_id" text,
	"url" text NOT NULL,
	"mode" text NOT NULL,
	"secret" text NOT NULL,
	"allow_private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD CONSTRAINT "lab_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mse_safety_events" ADD CONSTRAINT "mse_safety_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mse_signatures" ADD CONSTRAINT "mse_signatures_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mse_versions" ADD CONSTRAINT "mse_versions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mse_visits" ADD CONSTRAINT "mse_visits_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_connections" ADD CONSTRAINT "wearable_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_daily_metrics" ADD CONSTRAINT "wearable_daily_metrics_connection_id_wearable_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."wearable_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_account_page_idx" ON "events" USING btree ("account_id","mode","xact_id","seq");--> statement-breakpoint
CREATE INDEX "events_account_type_page_idx" ON "events" USING btree ("account_id","mode","type","xact_id","seq");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "lab_orders_account_idx" ON "lab_orders" USING btree ("account_id","mode","created_at");--> statement-breakpoint
CREATE INDEX "lab_orders_patient_idx" ON "lab_orders" USING btree ("account_id","mode","patient_ref","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "model_versions_one_active_idx" ON "model_versions" USING btree ("engine") WHERE "model_versions"."active";--> statement-breakpoint
CREATE INDEX "mse_safety_events_org_idx" ON "mse_safety_events" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "mse_signatures_visit_idx" ON "mse_signatures" USING btree ("org_id","visit_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "wearable_connections_token_idx" ON "wearable_connections" USING btree ("connect_token");--> statement-breakpoint
CREATE INDEX "wearable_connections_patient_idx" ON "wearable_connections" USING btree ("account_id","mode","patient_ref","created_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_idx" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_account_idx" ON "webhook_endpoints" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_org_idx" ON "webhook_endpoints" USING btree ("org_id");