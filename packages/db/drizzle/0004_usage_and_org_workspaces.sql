CREATE TABLE "api_usage_daily" (
	"day" date NOT NULL,
	"key_id" text NOT NULL,
	"operation" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"rate_limited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_usage_daily_day_key_id_operation_pk" PRIMARY KEY("day","key_id","operation")
);
--> statement-breakpoint
ALTER TABLE "dashboard_audit_log" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_invites" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_members" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dashboard_audit_log" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "api_usage_daily" ADD CONSTRAINT "api_usage_daily_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_audit_log" ADD CONSTRAINT "dashboard_audit_log_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD CONSTRAINT "dashboard_invites_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD CONSTRAINT "dashboard_members_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_audit_log_org_idx" ON "dashboard_audit_log" USING btree ("org_id","created_at");--> statement-breakpoint
ALTER TABLE "dashboard_audit_log" ADD CONSTRAINT "dashboard_audit_log_workspace_check" CHECK (("dashboard_audit_log"."account_id" is null) <> ("dashboard_audit_log"."org_id" is null));--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD CONSTRAINT "dashboard_invites_workspace_check" CHECK (("dashboard_invites"."account_id" is null) <> ("dashboard_invites"."org_id" is null));--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD CONSTRAINT "dashboard_members_workspace_check" CHECK (("dashboard_members"."account_id" is null) <> ("dashboard_members"."org_id" is null));