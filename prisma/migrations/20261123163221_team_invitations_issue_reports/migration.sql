-- AlterTable
ALTER TABLE "invitations" ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "first_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "group_names" TEXT[],
ADD COLUMN     "invited_by_id" INTEGER,
ADD COLUMN     "last_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "token_hash" TEXT;

-- AlterTable
ALTER TABLE "issue_reports" ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolved_by_id" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_email_idx" ON "invitations"("email");

-- CreateIndex
CREATE INDEX "issue_reports_subject_org_status_idx" ON "issue_reports"("subject_org", "status");

-- CreateIndex
CREATE INDEX "issue_reports_reporter_id_created_at_idx" ON "issue_reports"("reporter_id", "created_at");
