-- AlterTable
ALTER TABLE "catalogue_changes" DROP COLUMN "asset_ids",
ADD COLUMN     "max_term" INTEGER,
ADD COLUMN     "min_term" INTEGER;
