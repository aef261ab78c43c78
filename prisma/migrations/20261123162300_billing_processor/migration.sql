-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "card_event_at" TIMESTAMP(3),
ADD COLUMN     "processor_customer_id" TEXT,
ADD COLUMN     "processor_event_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "processed_webhook_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "event_created" TIMESTAMP(3) NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "builtin_checkout_sessions" (
    "id" TEXT NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "plan" "Plan" NOT NULL,
    "seats" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "builtin_checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "builtin_checkout_sessions_organisation_id_idx" ON "builtin_checkout_sessions"("organisation_id");
