-- AlterTable
ALTER TABLE "notification_preferences" ADD COLUMN     "scenario_change_threshold" DECIMAL(12,2) NOT NULL DEFAULT 1.00;

-- AlterTable
ALTER TABLE "scenarios" ADD COLUMN     "current" JSONB,
ADD COLUMN     "repriced_at" TIMESTAMP(3),
ADD COLUMN     "repriced_version" BIGINT;

-- CreateTable
CREATE TABLE "catalogue_changes" (
    "id" BIGSERIAL NOT NULL,
    "version" BIGINT,
    "txid" BIGINT NOT NULL,
    "organisation_id" INTEGER,
    "kind" TEXT NOT NULL,
    "asset_ids" INTEGER[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalogue_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scenario_repricings" (
    "scenario_id" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scenario_repricings_pkey" PRIMARY KEY ("scenario_id","version")
);

-- CreateIndex
CREATE INDEX "catalogue_changes_txid_idx" ON "catalogue_changes"("txid");

-- CreateIndex
CREATE INDEX "scenarios_kind_tool_idx" ON "scenarios"("kind", "tool");

-- AddForeignKey
ALTER TABLE "scenario_repricings" ADD CONSTRAINT "scenario_repricings_scenario_id_fkey" FOREIGN KEY ("scenario_id") REFERENCES "scenarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;
