-- A sign-in records the SERVICE_ENVIRONMENT that made it; its access and refresh tokens work only there, as API
-- tokens do (docs/auth.md). The environment of a session made before this column is unknown, so those sessions are
-- revoked (their users sign in once more) and the column's temporary default is dropped: every new session names it.
ALTER TABLE "sessions" ADD COLUMN "environment" "ServiceEnvironment" NOT NULL DEFAULT 'local';
UPDATE "sessions" SET "revoked_at" = CURRENT_TIMESTAMP WHERE "revoked_at" IS NULL;
ALTER TABLE "sessions" ALTER COLUMN "environment" DROP DEFAULT;
