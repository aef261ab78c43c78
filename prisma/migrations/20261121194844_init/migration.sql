-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "OrganisationType" AS ENUM ('f', 'b', 'u');

-- CreateEnum
CREATE TYPE "Plan" AS ENUM ('free', 'pro', 'max', 'team', 'enterprise');

-- CreateEnum
CREATE TYPE "ApiTokenScope" AS ENUM ('read', 'read_write');

-- CreateEnum
CREATE TYPE "ServiceEnvironment" AS ENUM ('local', 'qa', 'stage', 'prod');

-- CreateEnum
CREATE TYPE "ApiTokenOrigin" AS ENUM ('ui', 'mcp');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('trialing', 'active', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused');

-- CreateEnum
CREATE TYPE "CompoundingFrequency" AS ENUM ('w', 'm', 'q', 'y');

-- CreateEnum
CREATE TYPE "TriState" AS ENUM ('yes', 'no', 'both');

-- CreateEnum
CREATE TYPE "CardType" AS ENUM ('commercial', 'consumer');

-- CreateEnum
CREATE TYPE "DocLevel" AS ENUM ('low_doc', 'lite_doc', 'full_doc');

-- CreateEnum
CREATE TYPE "AssetState" AS ENUM ('none', 'new', 'used', 'demo');

-- CreateEnum
CREATE TYPE "TransactionType" AS ENUM ('purchase', 'refinance', 'sale_hire_back', 'capital_raise');

-- CreateEnum
CREATE TYPE "VersionResource" AS ENUM ('rate_card', 'asset_mapping');

-- CreateEnum
CREATE TYPE "ScenarioKind" AS ENUM ('recent', 'saved');

-- CreateEnum
CREATE TYPE "IssueReportKind" AS ENUM ('approval', 'pricing');

-- CreateTable
CREATE TABLE "organisations" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "type" "OrganisationType" NOT NULL,
    "abn" TEXT,
    "is_bid_broker" BOOLEAN NOT NULL DEFAULT false,
    "plan" "Plan" NOT NULL DEFAULT 'free',
    "plan_overrides" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organisations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "first_name" TEXT NOT NULL DEFAULT '',
    "last_name" TEXT NOT NULL DEFAULT '',
    "organisation_id" INTEGER,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_email_verified" BOOLEAN NOT NULL DEFAULT false,
    "created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitations" (
    "id" SERIAL NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "accepted_at" TIMESTAMP(3),

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "groups" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permissions" (
    "id" SERIAL NOT NULL,
    "codename" TEXT NOT NULL,

    CONSTRAINT "permissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "signed_in_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "secret_hash" TEXT NOT NULL,
    "issued_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "spent_at" TIMESTAMP(3),
    "successor_id" TEXT,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "scope" "ApiTokenScope" NOT NULL,
    "environment" "ServiceEnvironment" NOT NULL,
    "origin" "ApiTokenOrigin" NOT NULL DEFAULT 'ui',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_counters" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_counters_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateTable
CREATE TABLE "daily_usage" (
    "user_id" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_usage_pkey" PRIMARY KEY ("user_id","day","metric")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "plan" "Plan" NOT NULL,
    "plan_name" TEXT NOT NULL,
    "status" "SubscriptionStatus" NOT NULL,
    "seats" INTEGER NOT NULL DEFAULT 1,
    "trial_end" TIMESTAMP(3),
    "current_period_end" TIMESTAMP(3),
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "card_brand" TEXT,
    "card_last4" TEXT,
    "processor_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "alias" TEXT,
    "parent_id" INTEGER,
    "is_asset" BOOLEAN NOT NULL DEFAULT true,
    "is_deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" SERIAL NOT NULL,
    "product_name" TEXT NOT NULL,
    "organisation_id" INTEGER,
    "min_range" INTEGER,
    "max_range" INTEGER,
    "min_amount" DOUBLE PRECISION,
    "max_amount" DOUBLE PRECISION,
    "min_abn_age" INTEGER,
    "max_abn_age" INTEGER,
    "min_asset_age" INTEGER,
    "max_asset_age" INTEGER,
    "min_gst_age" INTEGER,
    "max_gst_age" INTEGER,
    "min_asset_age_plus_term" INTEGER,
    "max_asset_age_plus_term" INTEGER,
    "min_credit_score" INTEGER,
    "max_credit_score" INTEGER,
    "monthly_fee" DOUBLE PRECISION,
    "documentation_fee" DOUBLE PRECISION,
    "brokerage_cap" DOUBLE PRECISION,
    "maximum_brokerage_limit" DOUBLE PRECISION,
    "compounding_frequency" "CompoundingFrequency",
    "brokerage_loading_treatment" DOUBLE PRECISION,
    "max_origination_fee_limit" DOUBLE PRECISION,
    "doc_fee_financed" "TriState",
    "private_sale" "TriState",
    "sale_hire_back" "TriState",
    "home_owner" "TriState",
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_brackets" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "product_id" INTEGER NOT NULL,
    "type" "CardType" NOT NULL DEFAULT 'commercial',
    "min_term" INTEGER,
    "max_term" INTEGER,
    "min_amount" DOUBLE PRECISION,
    "max_amount" DOUBLE PRECISION,
    "min_asset_age" INTEGER,
    "max_asset_age" INTEGER,
    "base_min" DOUBLE PRECISION NOT NULL,
    "base_max" DOUBLE PRECISION NOT NULL,
    "max_lvr" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rate_brackets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "asset_rate_brackets" (
    "id" SERIAL NOT NULL,
    "asset_id" INTEGER NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "product_id" INTEGER,
    "rate_bracket_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_rate_brackets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "doc_level" "DocLevel" NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "priority" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "min_deposit_percentage" DECIMAL(12,4),
    "min_deposit_amount" DECIMAL(14,2),
    "max_term" INTEGER,
    "min_term" INTEGER,
    "min_abn_age" INTEGER,
    "max_abn_age" INTEGER,
    "min_gst_age" INTEGER,
    "max_gst_age" INTEGER,
    "min_asset_age" INTEGER,
    "max_asset_age" INTEGER,
    "min_asset_cost" DECIMAL(14,2),
    "max_asset_cost" DECIMAL(14,2),
    "min_borrower_age" INTEGER,
    "max_borrower_age" INTEGER,
    "min_file_age" INTEGER,
    "max_file_age" INTEGER,
    "min_credit_score" INTEGER,
    "max_credit_score" INTEGER,
    "home_owner" BOOLEAN,
    "private_sale" BOOLEAN,
    "sale_hire_back" BOOLEAN,
    "asset_state" "AssetState",
    "transaction_types" "TransactionType"[],
    "industries" TEXT[],
    "asset_ids" INTEGER[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_rate_brackets" (
    "approval_id" INTEGER NOT NULL,
    "rate_bracket_id" INTEGER NOT NULL,

    CONSTRAINT "approval_rate_brackets_pkey" PRIMARY KEY ("approval_id","rate_bracket_id")
);

-- CreateTable
CREATE TABLE "catalogue_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 1,

    CONSTRAINT "catalogue_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_card_versions" (
    "id" SERIAL NOT NULL,
    "organisation_id" INTEGER,
    "resource" "VersionResource" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reason" TEXT NOT NULL DEFAULT '',
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "label" TEXT NOT NULL DEFAULT '',
    "parts_present" TEXT[],
    "actor_email" TEXT NOT NULL DEFAULT '',
    "origin" TEXT NOT NULL DEFAULT 'app',
    "connection_id" INTEGER,
    "payload" JSONB NOT NULL,

    CONSTRAINT "rate_card_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scenarios" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "tool" TEXT NOT NULL DEFAULT 'calculator',
    "kind" "ScenarioKind" NOT NULL DEFAULT 'recent',
    "name" TEXT,
    "request" JSONB NOT NULL,
    "summary" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scenarios_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_preferences" (
    "user_id" INTEGER NOT NULL,
    "categories" JSONB NOT NULL DEFAULT '{}',
    "quiet_hours_enabled" BOOLEAN NOT NULL DEFAULT false,
    "quiet_hours_start" TEXT,
    "quiet_hours_end" TEXT,
    "timezone" TEXT NOT NULL DEFAULT '',
    "timezone_source" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMP(3),

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "devices" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "platform" TEXT NOT NULL DEFAULT '',
    "timezone" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_reports" (
    "id" SERIAL NOT NULL,
    "reporter_id" INTEGER NOT NULL,
    "kind" "IssueReportKind" NOT NULL,
    "subject_org" INTEGER,
    "approval" INTEGER,
    "rate_bracket" INTEGER,
    "subject_field" TEXT,
    "group_hash" TEXT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_connections" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "client_name" TEXT NOT NULL,
    "token_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "mcp_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "_GroupPermissions" (
    "A" INTEGER NOT NULL,
    "B" INTEGER NOT NULL,

    CONSTRAINT "_GroupPermissions_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateTable
CREATE TABLE "_UserGroups" (
    "A" INTEGER NOT NULL,
    "B" INTEGER NOT NULL,

    CONSTRAINT "_UserGroups_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_organisation_id_idx" ON "users"("organisation_id");

-- CreateIndex
CREATE INDEX "invitations_organisation_id_idx" ON "invitations"("organisation_id");

-- CreateIndex
CREATE UNIQUE INDEX "groups_name_key" ON "groups"("name");

-- CreateIndex
CREATE UNIQUE INDEX "permissions_codename_key" ON "permissions"("codename");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_parent_id_key" ON "refresh_tokens"("parent_id");

-- CreateIndex
CREATE INDEX "refresh_tokens_session_id_idx" ON "refresh_tokens"("session_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_id_key" ON "api_tokens"("token_id");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_organisation_id_key" ON "subscriptions"("organisation_id");

-- CreateIndex
CREATE INDEX "assets_parent_id_idx" ON "assets"("parent_id");

-- CreateIndex
CREATE INDEX "products_organisation_id_idx" ON "products"("organisation_id");

-- CreateIndex
CREATE INDEX "rate_brackets_organisation_id_idx" ON "rate_brackets"("organisation_id");

-- CreateIndex
CREATE INDEX "rate_brackets_product_id_idx" ON "rate_brackets"("product_id");

-- CreateIndex
CREATE INDEX "asset_rate_brackets_asset_id_idx" ON "asset_rate_brackets"("asset_id");

-- CreateIndex
CREATE INDEX "approvals_organisation_id_idx" ON "approvals"("organisation_id");

-- CreateIndex
CREATE INDEX "approval_rate_brackets_rate_bracket_id_idx" ON "approval_rate_brackets"("rate_bracket_id");

-- CreateIndex
CREATE INDEX "rate_card_versions_organisation_id_resource_idx" ON "rate_card_versions"("organisation_id", "resource");

-- CreateIndex
CREATE INDEX "scenarios_user_id_tool_kind_idx" ON "scenarios"("user_id", "tool", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "devices_user_id_token_key" ON "devices"("user_id", "token");

-- CreateIndex
CREATE INDEX "issue_reports_group_hash_status_idx" ON "issue_reports"("group_hash", "status");

-- CreateIndex
CREATE UNIQUE INDEX "mcp_connections_token_id_key" ON "mcp_connections"("token_id");

-- CreateIndex
CREATE INDEX "_GroupPermissions_B_index" ON "_GroupPermissions"("B");

-- CreateIndex
CREATE INDEX "_UserGroups_B_index" ON "_UserGroups"("B");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "assets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_brackets" ADD CONSTRAINT "rate_brackets_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_brackets" ADD CONSTRAINT "rate_brackets_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_rate_brackets" ADD CONSTRAINT "asset_rate_brackets_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_rate_brackets" ADD CONSTRAINT "asset_rate_brackets_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_rate_brackets" ADD CONSTRAINT "asset_rate_brackets_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_rate_brackets" ADD CONSTRAINT "asset_rate_brackets_rate_bracket_id_fkey" FOREIGN KEY ("rate_bracket_id") REFERENCES "rate_brackets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval_rate_brackets" ADD CONSTRAINT "approval_rate_brackets_approval_id_fkey" FOREIGN KEY ("approval_id") REFERENCES "approvals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval_rate_brackets" ADD CONSTRAINT "approval_rate_brackets_rate_bracket_id_fkey" FOREIGN KEY ("rate_bracket_id") REFERENCES "rate_brackets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_card_versions" ADD CONSTRAINT "rate_card_versions_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_card_versions" ADD CONSTRAINT "rate_card_versions_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "mcp_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_reports" ADD CONSTRAINT "issue_reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_connections" ADD CONSTRAINT "mcp_connections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_connections" ADD CONSTRAINT "mcp_connections_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "api_tokens"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_GroupPermissions" ADD CONSTRAINT "_GroupPermissions_A_fkey" FOREIGN KEY ("A") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_GroupPermissions" ADD CONSTRAINT "_GroupPermissions_B_fkey" FOREIGN KEY ("B") REFERENCES "permissions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_UserGroups" ADD CONSTRAINT "_UserGroups_A_fkey" FOREIGN KEY ("A") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_UserGroups" ADD CONSTRAINT "_UserGroups_B_fkey" FOREIGN KEY ("B") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
