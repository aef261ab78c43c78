-- AlterTable
ALTER TABLE "approvals" ADD COLUMN     "review_note" TEXT;
