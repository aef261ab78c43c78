-- AlterTable
ALTER TABLE "users" ADD COLUMN     "permission_codenames" TEXT[] DEFAULT ARRAY[]::TEXT[];
