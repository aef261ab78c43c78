-- CreateTable
CREATE TABLE "rate_card_states" (
    "organisation_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_card_states_pkey" PRIMARY KEY ("organisation_id")
);

-- CreateTable
CREATE TABLE "rate_card_follows" (
    "user_id" INTEGER NOT NULL,
    "organisation_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rate_card_follows_pkey" PRIMARY KEY ("user_id","organisation_id")
);

-- CreateIndex
CREATE INDEX "rate_card_follows_organisation_id_idx" ON "rate_card_follows"("organisation_id");

-- AddForeignKey
ALTER TABLE "rate_card_states" ADD CONSTRAINT "rate_card_states_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_card_follows" ADD CONSTRAINT "rate_card_follows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate_card_follows" ADD CONSTRAINT "rate_card_follows_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
