CREATE TABLE "dashboard_session_workspaces" (
	"session_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_members" DROP CONSTRAINT "dashboard_members_pkey";--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD COLUMN "workspace_id" text GENERATED ALWAYS AS (coalesce(account_id, org_id)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD CONSTRAINT "dashboard_members_user_id_workspace_id_pk" PRIMARY KEY("user_id","workspace_id");--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD COLUMN "by_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_session_workspaces" ADD CONSTRAINT "dashboard_session_workspaces_session_id_dashboard_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."dashboard_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_members_workspace_idx" ON "dashboard_members" USING btree ("workspace_id");
