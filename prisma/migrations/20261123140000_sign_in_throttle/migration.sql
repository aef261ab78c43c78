-- Sign-in throttle (docs/auth.md): consecutive failed sign-ins and the current lockout, per account (a hash of the
-- normalised email) and per client address. Kept in the database so every process enforces one budget.
CREATE TABLE "sign_in_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "sign_in_throttles_last_attempt_at_idx" ON "sign_in_throttles"("last_attempt_at");

-- Hand-written. Check and count one sign-in attempt against every key in one statement, so concurrent attempts
-- (parallel requests, other processes) queue on the rows instead of all passing a check made before any counted.
-- * Rows are created, then locked in key order, so two attempts never wait on each other crosswise.
-- * If any key is locked out, the attempt is refused (retry_after = seconds until the latest lockout ends) and
--   nothing is counted: a refused attempt tests no password, and it does not lengthen the lockout.
-- * Otherwise every key counts the attempt. A counter untouched for p_quiet_ms starts again from zero. The attempt
--   that brings a key to its allowance (p_allow) arms a lockout of min(p_base_ms * 2^(failures - p_allow), p_cap_ms)
--   before its password is checked, so no concurrent attempt gets past it; a successful sign-in lifts it again.
-- * Rows nobody touched for p_quiet_ms and not locked are pruned, a bounded batch per call, so the table does not
--   grow with every address and email ever tried.
CREATE OR REPLACE FUNCTION sign_in_attempt(
  p_keys text[], p_allow integer[], p_now timestamp(3), p_base_ms integer, p_cap_ms integer, p_quiet_ms integer
) RETURNS TABLE (allowed boolean, retry_after integer, counted integer[]) LANGUAGE plpgsql AS $$
DECLARE
  k text;
  i integer;
  n integer;
  wait_until timestamp(3);
  counts integer[] := '{}';
  quiet_since timestamp(3) := p_now - make_interval(secs => p_quiet_ms / 1000.0);
BEGIN
  DELETE FROM "sign_in_throttles" WHERE "key" IN (
    SELECT s."key" FROM "sign_in_throttles" s
     WHERE s."last_attempt_at" < quiet_since AND (s."locked_until" IS NULL OR s."locked_until" <= p_now)
       AND s."key" <> ALL (p_keys)
     LIMIT 100 FOR UPDATE SKIP LOCKED);

  FOR k IN SELECT DISTINCT u FROM unnest(p_keys) AS u ORDER BY u LOOP
    -- The no-op update takes the row lock whether the row was just inserted or already there.
    INSERT INTO "sign_in_throttles" ("key", "failures", "last_attempt_at") VALUES (k, 0, p_now)
      ON CONFLICT ("key") DO UPDATE SET "key" = EXCLUDED."key";
  END LOOP;

  SELECT max(s."locked_until") INTO wait_until FROM "sign_in_throttles" s
   WHERE s."key" = ANY (p_keys) AND s."locked_until" > p_now;
  IF wait_until IS NOT NULL THEN
    RETURN QUERY SELECT false, greatest(1, ceil(extract(epoch FROM (wait_until - p_now)))::integer), NULL::integer[];
    RETURN;
  END IF;

  FOR i IN 1 .. array_length(p_keys, 1) LOOP
    UPDATE "sign_in_throttles" s
       SET "failures" = (CASE WHEN s."last_attempt_at" < quiet_since THEN 0 ELSE s."failures" END) + 1,
           "last_attempt_at" = p_now
     WHERE s."key" = p_keys[i]
     RETURNING s."failures" INTO n;
    IF n >= p_allow[i] THEN
      UPDATE "sign_in_throttles" s
         SET "locked_until" = p_now + make_interval(secs => least(p_base_ms * power(2, least(n - p_allow[i], 30)), p_cap_ms) / 1000.0)
       WHERE s."key" = p_keys[i];
    END IF;
    counts := counts || n;
  END LOOP;
  RETURN QUERY SELECT true, 0, counts;
END $$;
