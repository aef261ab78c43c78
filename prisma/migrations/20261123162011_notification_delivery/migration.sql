-- CreateEnum
CREATE TYPE "NotificationOutcome" AS ENUM ('delivered', 'failed', 'dropped');

-- DropIndex
DROP INDEX "devices_user_id_token_key";

-- AlterTable
ALTER TABLE "devices" ADD COLUMN     "web_push_auth" TEXT,
ADD COLUMN     "web_push_p256dh" TEXT;

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" SERIAL NOT NULL,
    "notification_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "category" "NotificationCategory" NOT NULL,
    "status" "NotificationOutcome" NOT NULL,
    "reason" TEXT,
    "device_id" INTEGER,
    "platform" TEXT,
    "transport" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_outbox_user_id_id_idx" ON "notification_outbox"("user_id", "id");

-- CreateIndex
CREATE INDEX "notification_outbox_notification_id_idx" ON "notification_outbox"("notification_id");

-- CreateIndex
CREATE INDEX "devices_user_id_idx" ON "devices"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "devices_token_key" ON "devices"("token");

-- AddForeignKey
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
